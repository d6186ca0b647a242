-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "disabledReason" TEXT;

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "action" TEXT,
    "status" TEXT NOT NULL,
    "outcome" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JobPullRequest" (
    "jobId" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "merged" BOOLEAN NOT NULL DEFAULT false,
    "mergedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "JobPullRequest_pkey" PRIMARY KEY ("jobId")
);

-- CreateTable
CREATE TABLE "GitHubTrigger" (
    "id" TEXT NOT NULL,
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
    "repliedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GitHubTrigger_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookDelivery_receivedAt_idx" ON "WebhookDelivery"("receivedAt");

-- CreateIndex
CREATE INDEX "JobPullRequest_repository_number_idx" ON "JobPullRequest"("repository", "number");

-- CreateIndex
CREATE INDEX "GitHubTrigger_jobId_repliedAt_idx" ON "GitHubTrigger"("jobId", "repliedAt");

-- CreateIndex
CREATE UNIQUE INDEX "GitHubTrigger_jobId_seq_key" ON "GitHubTrigger"("jobId", "seq");
