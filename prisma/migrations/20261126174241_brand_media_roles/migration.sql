-- AlterTable
ALTER TABLE "brand_media" ADD COLUMN     "consent_at" TIMESTAMPTZ(3),
ADD COLUMN     "consent_name" TEXT,
ADD COLUMN     "duration_sec" DOUBLE PRECISION,
ADD COLUMN     "poster_key" TEXT,
ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'product';

