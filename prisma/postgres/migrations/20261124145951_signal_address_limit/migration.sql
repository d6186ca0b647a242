-- AlterTable
ALTER TABLE "AnalyticsFeedback" ADD COLUMN     "addressHash" TEXT;

-- AlterTable
ALTER TABLE "AnalyticsSearch" ADD COLUMN     "addressHash" TEXT;

-- CreateIndex
CREATE INDEX "AnalyticsFeedback_projectId_addressHash_receivedAt_idx" ON "AnalyticsFeedback"("projectId", "addressHash", "receivedAt");

-- CreateIndex
CREATE INDEX "AnalyticsSearch_projectId_addressHash_receivedAt_idx" ON "AnalyticsSearch"("projectId", "addressHash", "receivedAt");
