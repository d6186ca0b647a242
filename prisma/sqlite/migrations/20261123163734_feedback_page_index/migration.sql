-- CreateIndex
CREATE INDEX "AnalyticsFeedback_projectId_path_id_idx" ON "AnalyticsFeedback"("projectId", "path", "id");
