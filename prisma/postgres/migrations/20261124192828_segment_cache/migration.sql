-- CreateTable
CREATE TABLE "AnalyticsSegment" (
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "AnalyticsSegment_pkey" PRIMARY KEY ("projectId","name")
);
