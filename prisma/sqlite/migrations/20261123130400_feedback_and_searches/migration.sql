-- CreateTable
CREATE TABLE "AnalyticsFeedback" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "receivedAt" BIGINT NOT NULL,
    "path" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "helpful" INTEGER,
    "comment" TEXT,
    "contact" TEXT,
    "code" TEXT,
    "filename" TEXT,
    "lang" TEXT,
    "visitorHash" TEXT,
    "key" TEXT
);

-- CreateTable
CREATE TABLE "AnalyticsSearch" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "receivedAt" BIGINT NOT NULL,
    "query" TEXT NOT NULL,
    "clickedPath" TEXT,
    "visitorHash" TEXT,
    "key" TEXT
);

-- CreateIndex
CREATE INDEX "AnalyticsFeedback_projectId_ts_idx" ON "AnalyticsFeedback"("projectId", "ts");

-- CreateIndex
CREATE INDEX "AnalyticsFeedback_projectId_visitorHash_receivedAt_idx" ON "AnalyticsFeedback"("projectId", "visitorHash", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "AnalyticsFeedback_projectId_key_key" ON "AnalyticsFeedback"("projectId", "key");

-- CreateIndex
CREATE INDEX "AnalyticsSearch_projectId_ts_idx" ON "AnalyticsSearch"("projectId", "ts");

-- CreateIndex
CREATE INDEX "AnalyticsSearch_projectId_visitorHash_receivedAt_idx" ON "AnalyticsSearch"("projectId", "visitorHash", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "AnalyticsSearch_projectId_key_key" ON "AnalyticsSearch"("projectId", "key");
