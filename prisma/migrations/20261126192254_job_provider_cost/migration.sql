-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "provider_cost_cents" DOUBLE PRECISION NOT NULL DEFAULT 0;

