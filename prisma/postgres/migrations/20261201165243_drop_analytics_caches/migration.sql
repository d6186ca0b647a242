-- DropTable
DROP TABLE "AnalyticsAgentGapCounts";

-- DropTable
DROP TABLE "AnalyticsCountsDay";

-- DropTable
DROP TABLE "AnalyticsGapCounts";

-- DropTable
DROP TABLE "AnalyticsSegment";

-- The gap counts are gone: so are the marks of projects whose gap counts were to be recounted.
DELETE FROM "AnalyticsState" WHERE "name" LIKE 'gap recount:%';
