-- CreateTable
CREATE TABLE "AnalyticsDayAiMisses" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "AnalyticsDayAiMisses_pkey" PRIMARY KEY ("projectId","day","path","agent","status")
);

-- Fill it from the misses stored so far (a grouped read of the misses table, which is small beside the page views)
INSERT INTO "AnalyticsDayAiMisses" ("projectId", "day", "path", "agent", "status", "count")
SELECT "projectId", CAST("ts" / 86400000 AS INTEGER), "path", "agent", "status", COUNT(*)
FROM "AnalyticsAiMiss" GROUP BY "projectId", CAST("ts" / 86400000 AS INTEGER), "path", "agent", "status";
