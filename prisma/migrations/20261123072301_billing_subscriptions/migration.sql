-- AlterTable
ALTER TABLE "account_flags" ADD COLUMN     "resolution_note" TEXT,
ADD COLUMN     "resolved_by_id" TEXT;

-- CreateTable
CREATE TABLE "payment_references" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_references_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_references_provider_reference_key" ON "payment_references"("provider", "reference");
