-- The per-day counts of feedback and of AI misses go: the listings and the report count their rows in one GROUP BY.
-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "AnalyticsDayAiMisses";
PRAGMA foreign_keys=on;

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "AnalyticsDayFeedback";
PRAGMA foreign_keys=on;
