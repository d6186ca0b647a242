-- CreateTable
CREATE TABLE "AnalyticsSiteDay" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "human" INTEGER NOT NULL,
    "ai" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,

    PRIMARY KEY ("projectId", "day", "part")
);
