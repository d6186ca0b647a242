-- CreateTable
CREATE TABLE "AnalyticsAiRangeList" (
    "url" TEXT NOT NULL,
    "prefixes" TEXT,
    "creationTime" TEXT,
    "retrievedAt" BIGINT,
    "pending" TEXT,
    "checkedAt" BIGINT NOT NULL,
    "error" TEXT,

    CONSTRAINT "AnalyticsAiRangeList_pkey" PRIMARY KEY ("url")
);
