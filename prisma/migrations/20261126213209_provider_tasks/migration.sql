-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "awaiting_provider_since" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "provider_tasks" (
    "id" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "slot" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "handle" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'submitted',
    "submits" INTEGER NOT NULL DEFAULT 1,
    "seconds" DOUBLE PRECISION NOT NULL,
    "result_key" TEXT,
    "duration_sec" DOUBLE PRECISION,
    "error" TEXT,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "provider_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "provider_tasks_provider_external_id_idx" ON "provider_tasks"("provider", "external_id");

-- CreateIndex
CREATE UNIQUE INDEX "provider_tasks_job_id_slot_key" ON "provider_tasks"("job_id", "slot");

-- AddForeignKey
ALTER TABLE "provider_tasks" ADD CONSTRAINT "provider_tasks_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

