-- CreateTable
CREATE TABLE "AutomationConfig" (
    "projectId" TEXT NOT NULL,
    "sha" TEXT,
    "automations" TEXT NOT NULL,
    "problems" TEXT NOT NULL,
    "firstSeen" TEXT NOT NULL,
    "loadedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AutomationConfig_pkey" PRIMARY KEY ("projectId")
);

-- CreateTable
CREATE TABLE "AutomationRun" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "automationId" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "repository" TEXT,
    "beforeSha" TEXT,
    "afterSha" TEXT,
    "change" TEXT,
    "summary" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "jobId" TEXT,
    "seq" INTEGER,
    "prLink" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AutomationRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AutomationRun_projectId_automationId_createdAt_idx" ON "AutomationRun"("projectId", "automationId", "createdAt");

-- CreateIndex
CREATE INDEX "AutomationRun_jobId_status_idx" ON "AutomationRun"("jobId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "AutomationRun_projectId_automationId_dedupeKey_key" ON "AutomationRun"("projectId", "automationId", "dedupeKey");
