-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "admitted_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "jobs_user_id_status_created_at_idx" ON "jobs"("user_id", "status", "created_at");


-- Jobs running now keep their place; queued jobs wait for admission under their account's limit (their
-- old queue messages are dropped when they arrive, and admission sends fresh ones).
UPDATE "jobs" SET "admitted_at" = COALESCE("started_at", "created_at") WHERE "status" = 'processing';
