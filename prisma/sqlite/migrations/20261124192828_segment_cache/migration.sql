-- CreateTable
CREATE TABLE "AnalyticsSegment" (
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "data" BLOB NOT NULL,

    PRIMARY KEY ("projectId", "name")
);
