-- CreateTable
CREATE TABLE "AnalyticsPage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "path" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "AnalyticsVisitor" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "hash" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "AnalyticsEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "pageId" INTEGER NOT NULL,
    "visitorId" INTEGER,
    "kind" INTEGER NOT NULL,
    "agent" TEXT,
    "referrer" TEXT
);

-- CreateTable
CREATE TABLE "AnalyticsEventKey" (
    "projectId" TEXT NOT NULL,
    "key" TEXT NOT NULL,

    PRIMARY KEY ("projectId", "key")
);

-- CreateTable
CREATE TABLE "AnalyticsDayPage" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "pageId" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "visitors" BLOB NOT NULL,
    "views" INTEGER NOT NULL,

    PRIMARY KEY ("projectId", "day", "pageId", "kind")
);

-- CreateTable
CREATE TABLE "AnalyticsDay" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "generation" INTEGER NOT NULL,

    PRIMARY KEY ("projectId", "day")
);

-- CreateTable
CREATE TABLE "AnalyticsState" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" BIGINT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "AnalyticsPage_projectId_path_key" ON "AnalyticsPage"("projectId", "path");

-- CreateIndex
CREATE UNIQUE INDEX "AnalyticsVisitor_projectId_hash_key" ON "AnalyticsVisitor"("projectId", "hash");

-- CreateIndex
CREATE INDEX "AnalyticsEvent_projectId_ts_idx" ON "AnalyticsEvent"("projectId", "ts");
