-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "subscriptionId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "eventAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "dueAt" DATETIME NOT NULL,
    "retryUntil" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "endedAt" DATETIME
);
-- a stored message is due when its lease or retry time ends, else since it was written
INSERT INTO "new_WebhookMessage" ("dueAt", "attempts", "createdAt", "data", "endedAt", "eventAt", "id", "leaseExpiresAt", "leaseOwner", "projectId", "retryUntil", "status", "subscriptionId", "type") SELECT COALESCE("leaseExpiresAt", "createdAt"), "attempts", "createdAt", "data", "endedAt", "eventAt", "id", "leaseExpiresAt", "leaseOwner", "projectId", "retryUntil", "status", "subscriptionId", "type" FROM "WebhookMessage";
DROP TABLE "WebhookMessage";
ALTER TABLE "new_WebhookMessage" RENAME TO "WebhookMessage";
CREATE INDEX "WebhookMessage_subscriptionId_status_dueAt_idx" ON "WebhookMessage"("subscriptionId", "status", "dueAt");
CREATE INDEX "WebhookMessage_status_dueAt_idx" ON "WebhookMessage"("status", "dueAt");
CREATE INDEX "WebhookMessage_subscriptionId_createdAt_idx" ON "WebhookMessage"("subscriptionId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
