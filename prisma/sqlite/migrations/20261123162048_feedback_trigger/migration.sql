-- AlterTable
ALTER TABLE "AutomationRun" ADD COLUMN "feedbackThrough" INTEGER;
ALTER TABLE "AutomationRun" ADD COLUMN "page" TEXT;
