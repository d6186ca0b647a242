-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "description" TEXT,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousExpiresAt" TIMESTAMP(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" TEXT,
    "failingSince" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookMessage" (
    "id" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "eventAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "retryUntil" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "WebhookMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" BIGSERIAL NOT NULL,
    "messageId" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "responseStatus" INTEGER,
    "responseBody" TEXT,
    "error" TEXT,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
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
