-- CreateTable
CREATE TABLE "AnalyticsGapCounts" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "column" TEXT NOT NULL,
    "counts" BYTEA NOT NULL,

    CONSTRAINT "AnalyticsGapCounts_pkey" PRIMARY KEY ("projectId","day","column")
);

-- Projects whose day sets were folded before gap counts existed are recounted in the background at start-up
-- (src/analytics/store/keep-gap-counts.ts): the mark holds the first day not recounted yet, and its reports read
-- the day sets until the mark is gone.
INSERT INTO "AnalyticsState" ("name", "value") SELECT DISTINCT 'gap recount:' || "projectId", 0 FROM "AnalyticsDaySet";
