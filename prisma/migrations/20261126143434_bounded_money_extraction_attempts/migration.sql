-- AlterTable
ALTER TABLE "invoices" ALTER COLUMN "subtotal_cents" SET DATA TYPE BIGINT,
ALTER COLUMN "tax_cents" SET DATA TYPE BIGINT,
ALTER COLUMN "total_cents" SET DATA TYPE BIGINT;

-- AlterTable
ALTER TABLE "knowledge_items" ADD COLUMN     "extraction_attempts" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "orders" ALTER COLUMN "amount_cents" SET DATA TYPE BIGINT;

