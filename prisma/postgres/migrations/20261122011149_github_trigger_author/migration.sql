-- AlterTable
ALTER TABLE "GitHubTrigger" ADD COLUMN     "author" TEXT;
