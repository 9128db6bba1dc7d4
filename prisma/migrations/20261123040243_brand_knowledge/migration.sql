-- DropIndex
DROP INDEX "brand_profiles_user_id_key";

-- AlterTable
ALTER TABLE "brand_profiles" ADD COLUMN     "is_default" BOOLEAN NOT NULL DEFAULT false;

-- Until now an account had one profile: it is the account's default brand.
UPDATE "brand_profiles" SET "is_default" = true;

-- CreateTable
CREATE TABLE "brand_schedules" (
    "user_id" TEXT NOT NULL,
    "schedule" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "brand_schedules_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "knowledge_items" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'extracting',
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL DEFAULT 0,
    "file_key" TEXT,
    "source_url" TEXT,
    "extracted_text" TEXT,
    "warning" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "knowledge_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "knowledge_passages" (
    "id" TEXT NOT NULL,
    "item_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "search" tsvector,

    CONSTRAINT "knowledge_passages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "knowledge_items_user_id_created_at_idx" ON "knowledge_items"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "knowledge_passages_user_id_idx" ON "knowledge_passages"("user_id");

-- CreateIndex
CREATE INDEX "knowledge_passages_item_id_ordinal_idx" ON "knowledge_passages"("item_id", "ordinal");

-- CreateIndex
-- The full-text index retrieval ranks with (ts_rank); `search` is written as to_tsvector('english', text).
CREATE INDEX "knowledge_passages_search_idx" ON "knowledge_passages" USING GIN ("search");

-- CreateIndex
CREATE INDEX "brand_profiles_user_id_created_at_idx" ON "brand_profiles"("user_id", "created_at");

-- AddForeignKey
ALTER TABLE "brand_schedules" ADD CONSTRAINT "brand_schedules_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledge_items" ADD CONSTRAINT "knowledge_items_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "knowledge_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;

