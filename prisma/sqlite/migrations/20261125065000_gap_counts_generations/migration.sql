-- Reports keep gap-count rows in memory under the generation of their day in "AnalyticsCountsDay" (family: the
-- table name, see src/analytics/store/keep-gap-counts.ts).
-- Fill: every day that already has gap counts gets its first generation.
INSERT INTO "AnalyticsCountsDay" ("projectId", "family", "day", "generation") SELECT DISTINCT "projectId", 'AnalyticsGapCounts', "day", 1 FROM "AnalyticsGapCounts";
INSERT INTO "AnalyticsCountsDay" ("projectId", "family", "day", "generation") SELECT DISTINCT "projectId", 'AnalyticsAgentGapCounts', "day", 1 FROM "AnalyticsAgentGapCounts";
