-- CreateTable
CREATE TABLE "AnalyticsAgentDaySet" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "agent" TEXT NOT NULL,
    "verification" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "pairs" BLOB NOT NULL,

    PRIMARY KEY ("projectId", "day", "kind", "agent", "verification", "part")
);

-- CreateTable
CREATE TABLE "AnalyticsAgentDayViews" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "agent" TEXT NOT NULL,
    "verification" INTEGER NOT NULL,
    "views" BLOB NOT NULL,

    PRIMARY KEY ("projectId", "day", "kind", "agent", "verification")
);
