-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "description" TEXT,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousExpiresAt" DATETIME,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" TEXT,
    "failingSince" DATETIME,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME
);

-- CreateTable
CREATE TABLE "WebhookMessage" (
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
    "retryUntil" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "endedAt" DATETIME
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "messageId" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "at" DATETIME NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "responseStatus" INTEGER,
    "responseBody" TEXT,
    "error" TEXT
);

-- CreateIndex
CREATE INDEX "WebhookSubscription_projectId_createdAt_idx" ON "WebhookSubscription"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookSubscription_projectId_url_key" ON "WebhookSubscription"("projectId", "url");

-- CreateIndex
CREATE INDEX "WebhookEvent_status_leaseExpiresAt_idx" ON "WebhookEvent"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_status_leaseExpiresAt_idx" ON "WebhookMessage"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "WebhookMessage_subscriptionId_createdAt_idx" ON "WebhookMessage"("subscriptionId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_messageId_id_idx" ON "WebhookAttempt"("messageId", "id");

-- CreateIndex
CREATE INDEX "WebhookAttempt_subscriptionId_id_idx" ON "WebhookAttempt"("subscriptionId", "id");
