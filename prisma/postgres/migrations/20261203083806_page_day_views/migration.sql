-- CreateTable
CREATE TABLE "AnalyticsPageDay" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "pageId" INTEGER NOT NULL,
    "views" BYTEA NOT NULL,

    CONSTRAINT "AnalyticsPageDay_pkey" PRIMARY KEY ("projectId","day","pageId")
);

-- Projects whose views were folded before this table existed: their rows lack those views until
-- `scribe analytics rebuild` re-derives them (src/analytics/store/rollups/page-days.ts pageDaysMissing).
INSERT INTO "AnalyticsState" ("name", "value")
SELECT DISTINCT 'page-days-missing:' || "projectId", 1 FROM "AnalyticsEvent"
 WHERE "id" <= COALESCE((SELECT "value" FROM "AnalyticsState" WHERE "name" = 'folded'), 0);
