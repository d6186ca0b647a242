-- The searches listing reads its per-day counts through the day cache too (src/analytics/store/counts-cache.ts).
-- Fill: every day that already has searches or result clicks counted gets its first generation.
INSERT INTO "AnalyticsCountsDay" ("projectId", "family", "day", "generation") SELECT DISTINCT "projectId", 'searches', "day", 1 FROM "AnalyticsDaySearches";
INSERT INTO "AnalyticsCountsDay" ("projectId", "family", "day", "generation") SELECT DISTINCT "projectId", 'search-clicks', "day", 1 FROM "AnalyticsDaySearchClicks";
