-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "AnalyticsAgentGapCounts";
PRAGMA foreign_keys=on;

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "AnalyticsCountsDay";
PRAGMA foreign_keys=on;

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "AnalyticsGapCounts";
PRAGMA foreign_keys=on;

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "AnalyticsSegment";
PRAGMA foreign_keys=on;

-- The gap counts are gone: so are the marks of projects whose gap counts were to be recounted.
DELETE FROM "AnalyticsState" WHERE "name" LIKE 'gap recount:%';
