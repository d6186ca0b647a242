-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "installationId" INTEGER,
ADD COLUMN     "leaseExpiresAt" TIMESTAMP(3),
ADD COLUMN     "leaseOwner" TEXT,
ADD COLUMN     "payload" TEXT;

-- CreateIndex
CREATE INDEX "GitHubTrigger_repository_commentId_idx" ON "GitHubTrigger"("repository", "commentId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_leaseExpiresAt_idx" ON "WebhookDelivery"("status", "leaseExpiresAt");
