-- CreateTable
CREATE TABLE "AnalyticsKeyDirectory" (
    "url" TEXT NOT NULL PRIMARY KEY,
    "operator" TEXT NOT NULL,
    "agents" TEXT NOT NULL,
    "keys" TEXT NOT NULL,
    "retrievedAt" BIGINT NOT NULL
);
