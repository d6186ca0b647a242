-- CreateTable
CREATE TABLE "DocsReviewCheck" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "automationId" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "headSha" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "checkRunId" TEXT,
    "conclusion" TEXT,
    "title" TEXT,
    "pageCount" INTEGER,
    "findings" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "DocsReviewComment" (
    "projectId" TEXT NOT NULL,
    "automationId" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "commentId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "headSha" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("projectId", "automationId", "repository", "number")
);

-- CreateIndex
CREATE INDEX "DocsReviewCheck_repository_number_idx" ON "DocsReviewCheck"("repository", "number");

-- CreateIndex
CREATE UNIQUE INDEX "DocsReviewCheck_projectId_automationId_repository_headSha_key" ON "DocsReviewCheck"("projectId", "automationId", "repository", "headSha");
