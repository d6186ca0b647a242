-- CreateTable
CREATE TABLE "AnalyticsOutbox" (
    "id" BIGSERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "path" TEXT NOT NULL,
    "visitor" TEXT,
    "kind" INTEGER NOT NULL,
    "agent" TEXT,
    "referrer" TEXT,
    "verification" INTEGER,
    "batch" TEXT,

    CONSTRAINT "AnalyticsOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AnalyticsOutbox_batch_idx" ON "AnalyticsOutbox"("batch");
