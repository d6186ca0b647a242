-- CreateTable
CREATE TABLE "AgentJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "baseRef" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "prNumber" INTEGER,
    "prLink" TEXT,
    "error" TEXT,
    "errorStage" TEXT,
    "title" TEXT,
    "summary" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "runsCompleted" INTEGER NOT NULL DEFAULT 0,
    "handledSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "archivedAt" DATETIME
);

-- CreateTable
CREATE TABLE "AgentJobMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "jobId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "AgentJobMessage_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "AgentJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AgentJobEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "jobId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "AgentJobEvent_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "AgentJob" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AgentJob_projectId_createdAt_idx" ON "AgentJob"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "AgentJob_status_leaseExpiresAt_idx" ON "AgentJob"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "AgentJobMessage_projectId_createdAt_idx" ON "AgentJobMessage"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "AgentJobMessage_jobId_seq_key" ON "AgentJobMessage"("jobId", "seq");

-- CreateIndex
CREATE INDEX "AgentJobEvent_jobId_id_idx" ON "AgentJobEvent"("jobId", "id");
