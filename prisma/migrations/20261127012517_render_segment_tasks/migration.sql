-- CreateTable
CREATE TABLE "render_segment_tasks" (
    "key" TEXT NOT NULL,
    "job_id" TEXT,
    "user_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "payload" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "worker" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "busy_ms" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "render_segment_tasks_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "render_segment_tasks_user_id_status_idx" ON "render_segment_tasks"("user_id", "status");

-- CreateIndex
CREATE INDEX "render_segment_tasks_job_id_idx" ON "render_segment_tasks"("job_id");

