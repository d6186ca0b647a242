-- AlterTable
ALTER TABLE "AnalyticsEvent" ADD COLUMN "verification" INTEGER;
