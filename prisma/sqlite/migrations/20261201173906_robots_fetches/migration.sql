-- CreateTable
CREATE TABLE "AnalyticsRobotsFetch" (
    "projectId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "checkedAt" BIGINT NOT NULL,
    "status" INTEGER,
    "error" TEXT,

    PRIMARY KEY ("projectId", "host")
);
