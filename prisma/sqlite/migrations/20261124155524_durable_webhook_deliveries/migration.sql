-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "event" TEXT NOT NULL,
    "action" TEXT,
    "status" TEXT NOT NULL,
    "outcome" TEXT,
    "receivedAt" DATETIME NOT NULL,
    "processedAt" DATETIME,
    "payload" TEXT,
    "installationId" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME
);
INSERT INTO "new_WebhookDelivery" ("action", "event", "id", "outcome", "processedAt", "receivedAt", "status") SELECT "action", "event", "id", "outcome", "processedAt", "receivedAt", "status" FROM "WebhookDelivery";
DROP TABLE "WebhookDelivery";
ALTER TABLE "new_WebhookDelivery" RENAME TO "WebhookDelivery";
CREATE INDEX "WebhookDelivery_receivedAt_idx" ON "WebhookDelivery"("receivedAt");
CREATE INDEX "WebhookDelivery_status_leaseExpiresAt_idx" ON "WebhookDelivery"("status", "leaseExpiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "GitHubTrigger_repository_commentId_idx" ON "GitHubTrigger"("repository", "commentId");
