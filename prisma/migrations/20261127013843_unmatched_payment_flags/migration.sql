-- AlterTable
ALTER TABLE "account_flags" ALTER COLUMN "user_id" DROP NOT NULL;

