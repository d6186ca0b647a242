-- AlterTable
ALTER TABLE "DocsPullRequestMerge" ADD COLUMN "keptVisitors" TEXT;
