-- CreateTable
CREATE TABLE "AnalyticsCountsDay" (
    "projectId" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "generation" INTEGER NOT NULL,

    PRIMARY KEY ("projectId", "family", "day")
);

-- Fill: every day that already has misses counted gets its first generation (a day with counts has a row).
INSERT INTO "AnalyticsCountsDay" ("projectId", "family", "day", "generation") SELECT DISTINCT "projectId", 'misses', "day", 1 FROM "AnalyticsDayAiMisses";
