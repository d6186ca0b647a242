-- AlterTable
ALTER TABLE "AgentJob" ADD COLUMN     "cause" TEXT;

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

    CONSTRAINT "AnalyticsPageMiss_pkey" PRIMARY KEY ("projectId","key")
);

-- CreateTable
CREATE TABLE "ProblemState" (
    "projectId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "dismissedAt" TIMESTAMP(3),
    "fixKey" TEXT,
    "jobId" TEXT,
    "fixedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProblemState_pkey" PRIMARY KEY ("projectId","id")
);

-- CreateIndex
CREATE INDEX "AnalyticsPageMiss_projectId_ts_idx" ON "AnalyticsPageMiss"("projectId", "ts");

-- CreateIndex
CREATE INDEX "ProblemState_jobId_idx" ON "ProblemState"("jobId");
