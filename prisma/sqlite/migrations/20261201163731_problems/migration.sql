-- AlterTable
ALTER TABLE "AgentJob" ADD COLUMN "cause" TEXT;

-- CreateTable
CREATE TABLE "AnalyticsPageMiss" (
    "projectId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "path" TEXT NOT NULL,
    "class" TEXT NOT NULL,
    "agent" TEXT,
    "verified" INTEGER,
    "status" INTEGER NOT NULL,
    "visitorHash" TEXT NOT NULL,

    PRIMARY KEY ("projectId", "key")
);

-- CreateTable
CREATE TABLE "ProblemState" (
    "projectId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "dismissedAt" DATETIME,
    "fixKey" TEXT,
    "jobId" TEXT,
    "fixedAt" DATETIME,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("projectId", "id")
);

-- CreateIndex
CREATE INDEX "AnalyticsPageMiss_projectId_ts_idx" ON "AnalyticsPageMiss"("projectId", "ts");

-- CreateIndex
CREATE INDEX "ProblemState_jobId_idx" ON "ProblemState"("jobId");
