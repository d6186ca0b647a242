-- CreateIndex
CREATE INDEX "AnalyticsFeedback_projectId_path_ts_idx" ON "AnalyticsFeedback"("projectId", "path", "ts");

-- CreateIndex
CREATE INDEX "AnalyticsSearch_projectId_query_ts_idx" ON "AnalyticsSearch"("projectId", "query", "ts");

-- CreateIndex
CREATE INDEX "AnalyticsSearch_projectId_clickedPath_ts_query_idx" ON "AnalyticsSearch"("projectId", "clickedPath", "ts", "query");
