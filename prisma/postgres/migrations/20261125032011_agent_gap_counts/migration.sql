-- CreateTable
CREATE TABLE "AnalyticsAgentGapCounts" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "column" TEXT NOT NULL,
    "counts" BYTEA NOT NULL,

    CONSTRAINT "AnalyticsAgentGapCounts_pkey" PRIMARY KEY ("projectId","day","column")
);

-- Projects whose agent cells were folded before these counts existed are recounted from the start (every family:
-- see the gap_counts migration).
INSERT INTO "AnalyticsState" ("name", "value") SELECT DISTINCT 'gap recount:' || "projectId", 0 FROM "AnalyticsAgentDaySet" WHERE true ON CONFLICT ("name") DO UPDATE SET "value" = 0;
