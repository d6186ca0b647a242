-- CreateTable
CREATE TABLE "AnalyticsPage" (
    "id" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "path" TEXT NOT NULL,

    CONSTRAINT "AnalyticsPage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsVisitor" (
    "id" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "AnalyticsVisitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsEvent" (
    "id" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "pageId" INTEGER NOT NULL,
    "visitorId" INTEGER,
    "kind" INTEGER NOT NULL,
    "agent" TEXT,
    "referrer" TEXT,

    CONSTRAINT "AnalyticsEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsEventKey" (
    "projectId" TEXT NOT NULL,
    "key" TEXT NOT NULL,

    CONSTRAINT "AnalyticsEventKey_pkey" PRIMARY KEY ("projectId","key")
);

-- CreateTable
CREATE TABLE "AnalyticsDayPage" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "pageId" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "visitors" BYTEA NOT NULL,
    "views" INTEGER NOT NULL,

    CONSTRAINT "AnalyticsDayPage_pkey" PRIMARY KEY ("projectId","day","pageId","kind")
);

-- CreateTable
CREATE TABLE "AnalyticsDay" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "generation" INTEGER NOT NULL,

    CONSTRAINT "AnalyticsDay_pkey" PRIMARY KEY ("projectId","day")
);

-- CreateTable
CREATE TABLE "AnalyticsState" (
    "name" TEXT NOT NULL,
    "value" BIGINT NOT NULL,

    CONSTRAINT "AnalyticsState_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "AnalyticsPage_projectId_path_key" ON "AnalyticsPage"("projectId", "path");

-- CreateIndex
CREATE UNIQUE INDEX "AnalyticsVisitor_projectId_hash_key" ON "AnalyticsVisitor"("projectId", "hash");

-- CreateIndex
CREATE INDEX "AnalyticsEvent_projectId_ts_idx" ON "AnalyticsEvent"("projectId", "ts");
