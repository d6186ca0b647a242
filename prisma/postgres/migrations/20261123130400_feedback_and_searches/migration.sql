-- CreateTable
CREATE TABLE "AnalyticsFeedback" (
    "id" SERIAL NOT NULL,
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
    "key" TEXT,

    CONSTRAINT "AnalyticsFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsSearch" (
    "id" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "receivedAt" BIGINT NOT NULL,
    "query" TEXT NOT NULL,
    "clickedPath" TEXT,
    "visitorHash" TEXT,
    "key" TEXT,

    CONSTRAINT "AnalyticsSearch_pkey" PRIMARY KEY ("id")
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
