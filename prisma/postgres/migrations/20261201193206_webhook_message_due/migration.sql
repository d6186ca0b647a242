-- DropIndex
DROP INDEX "WebhookMessage_status_leaseExpiresAt_idx";

-- AlterTable
ALTER TABLE "WebhookMessage" ADD COLUMN     "dueAt" TIMESTAMP(3);
-- a stored message is due when its lease or retry time ends, else since it was written
UPDATE "WebhookMessage" SET "dueAt" = COALESCE("leaseExpiresAt", "createdAt");
ALTER TABLE "WebhookMessage" ALTER COLUMN "dueAt" SET NOT NULL;

-- CreateIndex
CREATE INDEX "WebhookMessage_subscriptionId_status_dueAt_idx" ON "WebhookMessage"("subscriptionId", "status", "dueAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_status_dueAt_idx" ON "WebhookMessage"("status", "dueAt");
