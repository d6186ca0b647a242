-- The per-day counts of feedback and of AI misses go: the listings and the report count their rows in one GROUP BY.
-- DropTable
DROP TABLE "AnalyticsDayAiMisses";

-- DropTable
DROP TABLE "AnalyticsDayFeedback";
