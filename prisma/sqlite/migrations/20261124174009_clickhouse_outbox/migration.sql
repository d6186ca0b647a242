-- CreateTable
CREATE TABLE "AnalyticsOutbox" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "path" TEXT NOT NULL,
    "visitor" TEXT,
    "kind" INTEGER NOT NULL,
    "agent" TEXT,
    "referrer" TEXT,
    "verification" INTEGER,
    "batch" TEXT
);

-- CreateIndex
CREATE INDEX "AnalyticsOutbox_batch_idx" ON "AnalyticsOutbox"("batch");
