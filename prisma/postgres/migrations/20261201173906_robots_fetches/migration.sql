-- CreateTable
CREATE TABLE "AnalyticsRobotsFetch" (
    "projectId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "checkedAt" BIGINT NOT NULL,
    "status" INTEGER,
    "error" TEXT,

    CONSTRAINT "AnalyticsRobotsFetch_pkey" PRIMARY KEY ("projectId","host")
);
