-- CreateTable
CREATE TABLE "AnalyticsAiMiss" (
    "projectId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    "path" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "status" INTEGER NOT NULL,

    CONSTRAINT "AnalyticsAiMiss_pkey" PRIMARY KEY ("projectId","key")
);

-- CreateIndex
CREATE INDEX "AnalyticsAiMiss_projectId_ts_idx" ON "AnalyticsAiMiss"("projectId", "ts");
