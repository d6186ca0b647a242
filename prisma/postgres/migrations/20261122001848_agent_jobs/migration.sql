-- CreateTable
CREATE TABLE "AgentJob" (
    "id" TEXT NOT NULL,
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
    "leaseExpiresAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "runsCompleted" INTEGER NOT NULL DEFAULT 0,
    "handledSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "AgentJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentJobMessage" (
    "id" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AgentJobMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentJobEvent" (
    "id" SERIAL NOT NULL,
    "jobId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AgentJobEvent_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "AgentJobMessage" ADD CONSTRAINT "AgentJobMessage_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "AgentJob"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentJobEvent" ADD CONSTRAINT "AgentJobEvent_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "AgentJob"("id") ON DELETE CASCADE ON UPDATE CASCADE;
