-- CreateTable
CREATE TABLE "AnalyticsAgentDaySet" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "agent" TEXT NOT NULL,
    "verification" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "pairs" BYTEA NOT NULL,

    CONSTRAINT "AnalyticsAgentDaySet_pkey" PRIMARY KEY ("projectId","day","kind","agent","verification","part")
);

-- CreateTable
CREATE TABLE "AnalyticsAgentDayViews" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "agent" TEXT NOT NULL,
    "verification" INTEGER NOT NULL,
    "views" BYTEA NOT NULL,

    CONSTRAINT "AnalyticsAgentDayViews_pkey" PRIMARY KEY ("projectId","day","kind","agent","verification")
);
