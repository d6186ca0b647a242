-- CreateTable
CREATE TABLE "AnalyticsRobotsVersion" (
    "id" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "firstSeenAt" BIGINT NOT NULL,
    "lastSeenAt" BIGINT NOT NULL,

    CONSTRAINT "AnalyticsRobotsVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnalyticsRobotsReader" (
    "projectId" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "firstSeenAt" BIGINT NOT NULL,
    "lastSeenAt" BIGINT NOT NULL,

    CONSTRAINT "AnalyticsRobotsReader_pkey" PRIMARY KEY ("projectId","agent")
);

-- CreateIndex
CREATE INDEX "AnalyticsRobotsVersion_projectId_host_firstSeenAt_idx" ON "AnalyticsRobotsVersion"("projectId", "host", "firstSeenAt");
