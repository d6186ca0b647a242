-- CreateIndex
CREATE INDEX "AnalyticsPageMiss_projectId_path_ts_idx" ON "AnalyticsPageMiss"("projectId", "path", "ts");
