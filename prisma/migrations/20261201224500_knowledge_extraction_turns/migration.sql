-- AlterTable
ALTER TABLE "knowledge_items" ADD COLUMN     "extraction_claimed_at" TIMESTAMPTZ(3),
ADD COLUMN     "extraction_started_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "knowledge_items_status_created_at_idx" ON "knowledge_items"("status", "created_at");
