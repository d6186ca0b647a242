-- CreateTable
CREATE TABLE "AnalyticsRobotsVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "firstSeenAt" BIGINT NOT NULL,
    "lastSeenAt" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "AnalyticsRobotsReader" (
    "projectId" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "firstSeenAt" BIGINT NOT NULL,
    "lastSeenAt" BIGINT NOT NULL,

    PRIMARY KEY ("projectId", "agent")
);

-- CreateIndex
CREATE INDEX "AnalyticsRobotsVersion_projectId_host_firstSeenAt_idx" ON "AnalyticsRobotsVersion"("projectId", "host", "firstSeenAt");
