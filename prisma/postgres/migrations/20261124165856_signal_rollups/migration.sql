-- CreateTable
CREATE TABLE "AnalyticsDayFeedback" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "up" INTEGER NOT NULL,
    "down" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,

    CONSTRAINT "AnalyticsDayFeedback_pkey" PRIMARY KEY ("projectId","day","path","source","status")
);

-- CreateTable
CREATE TABLE "AnalyticsDaySearches" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "query" TEXT NOT NULL,
    "hits" INTEGER NOT NULL,
    "last" BIGINT NOT NULL,

    CONSTRAINT "AnalyticsDaySearches_pkey" PRIMARY KEY ("projectId","day","query")
);

-- CreateTable
CREATE TABLE "AnalyticsDaySearchClicks" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "query" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "clicks" INTEGER NOT NULL,

    CONSTRAINT "AnalyticsDaySearchClicks_pkey" PRIMARY KEY ("projectId","day","query","path")
);

-- Fill them from the feedback and searches stored so far (grouped reads of tables written by people, not page views)
INSERT INTO "AnalyticsDayFeedback" ("projectId", "day", "path", "source", "status", "up", "down", "total")
SELECT "projectId", CAST("ts" / 86400000 AS INTEGER), "path", "source", "status",
       SUM(CASE WHEN "source" IN ('contextual', 'thumbs_only') AND "helpful" = 1 THEN 1 ELSE 0 END),
       SUM(CASE WHEN "source" IN ('contextual', 'thumbs_only') AND "helpful" = 0 THEN 1 ELSE 0 END), COUNT(*)
FROM "AnalyticsFeedback" GROUP BY "projectId", CAST("ts" / 86400000 AS INTEGER), "path", "source", "status";

INSERT INTO "AnalyticsDaySearches" ("projectId", "day", "query", "hits", "last")
SELECT "projectId", CAST("ts" / 86400000 AS INTEGER), "query", COUNT(*), MAX("ts")
FROM "AnalyticsSearch" WHERE "clickedPath" IS NULL GROUP BY "projectId", CAST("ts" / 86400000 AS INTEGER), "query";

INSERT INTO "AnalyticsDaySearchClicks" ("projectId", "day", "query", "path", "clicks")
SELECT "projectId", CAST("ts" / 86400000 AS INTEGER), "query", "clickedPath", COUNT(*)
FROM "AnalyticsSearch" WHERE "clickedPath" IS NOT NULL GROUP BY "projectId", CAST("ts" / 86400000 AS INTEGER), "query", "clickedPath";
