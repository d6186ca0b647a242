-- AlterTable
ALTER TABLE "AutomationRun" ADD COLUMN     "feedbackThrough" INTEGER,
ADD COLUMN     "page" TEXT;
