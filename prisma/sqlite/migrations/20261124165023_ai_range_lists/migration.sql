-- CreateTable
CREATE TABLE "AnalyticsAiRangeList" (
    "url" TEXT NOT NULL PRIMARY KEY,
    "prefixes" TEXT,
    "creationTime" TEXT,
    "retrievedAt" BIGINT,
    "pending" TEXT,
    "checkedAt" BIGINT NOT NULL,
    "error" TEXT
);
