-- CreateTable
CREATE TABLE "brand_media" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "file_key" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brand_media_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "brand_media_user_id_created_at_idx" ON "brand_media"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "brand_media" ADD CONSTRAINT "brand_media_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

