-- CreateTable
CREATE TABLE "AnalyticsKeyDirectory" (
    "url" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "agents" TEXT NOT NULL,
    "keys" TEXT NOT NULL,
    "retrievedAt" BIGINT NOT NULL,

    CONSTRAINT "AnalyticsKeyDirectory_pkey" PRIMARY KEY ("url")
);
