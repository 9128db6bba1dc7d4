-- CreateTable
CREATE TABLE "render_segments" (
    "key" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "hits" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "render_segments_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "render_cache_stats" (
    "id" INTEGER NOT NULL,
    "hits" BIGINT NOT NULL DEFAULT 0,
    "misses" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "render_cache_stats_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "render_segments_last_used_at_idx" ON "render_segments"("last_used_at");

