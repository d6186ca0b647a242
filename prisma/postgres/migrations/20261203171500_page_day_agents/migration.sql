-- Page days now keep each AI view's agent (src/analytics/store/page-day-views.ts), in a layout the rows before
-- cannot be read as: they go, and every project with folded views is marked as lacking them until
-- `scribe analytics rebuild` re-derives it (src/analytics/store/rollups/page-days.ts pageDaysMissing).
DELETE FROM "AnalyticsPageDay";

INSERT INTO "AnalyticsState" ("name", "value")
SELECT DISTINCT 'page-days-missing:' || "projectId", 1 FROM "AnalyticsEvent"
 WHERE "id" <= COALESCE((SELECT "value" FROM "AnalyticsState" WHERE "name" = 'folded'), 0)
ON CONFLICT ("name") DO NOTHING;
