-- AlterTable
ALTER TABLE "Project" ADD COLUMN "disabledReason" TEXT;

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "event" TEXT NOT NULL,
    "action" TEXT,
    "status" TEXT NOT NULL,
    "outcome" TEXT,
    "receivedAt" DATETIME NOT NULL,
    "processedAt" DATETIME
);

-- CreateTable
CREATE TABLE "JobPullRequest" (
    "jobId" TEXT NOT NULL PRIMARY KEY,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "merged" BOOLEAN NOT NULL DEFAULT false,
    "mergedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "GitHubTrigger" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "jobId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "installationId" INTEGER NOT NULL,
    "issueNumber" INTEGER NOT NULL,
    "reviewCommentId" INTEGER,
    "path" TEXT,
    "line" INTEGER,
    "commentId" INTEGER NOT NULL,
    "repliedAt" DATETIME,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_receivedAt_idx" ON "WebhookDelivery"("receivedAt");

-- CreateIndex
CREATE INDEX "JobPullRequest_repository_number_idx" ON "JobPullRequest"("repository", "number");

-- CreateIndex
CREATE INDEX "GitHubTrigger_jobId_repliedAt_idx" ON "GitHubTrigger"("jobId", "repliedAt");

-- CreateIndex
CREATE UNIQUE INDEX "GitHubTrigger_jobId_seq_key" ON "GitHubTrigger"("jobId", "seq");
