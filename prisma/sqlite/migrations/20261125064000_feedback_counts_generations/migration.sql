-- The feedback-by-page listing reads its per-day counts through the day cache too (src/analytics/store/counts-cache.ts).
-- Fill: every day that already has feedback counted gets its first generation.
INSERT INTO "AnalyticsCountsDay" ("projectId", "family", "day", "generation") SELECT DISTINCT "projectId", 'feedback', "day", 1 FROM "AnalyticsDayFeedback";
