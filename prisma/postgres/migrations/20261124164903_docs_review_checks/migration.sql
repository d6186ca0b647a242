-- CreateTable
CREATE TABLE "DocsReviewCheck" (
    "id" TEXT NOT NULL,
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
    "leaseExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DocsReviewCheck_pkey" PRIMARY KEY ("id")
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
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DocsReviewComment_pkey" PRIMARY KEY ("projectId","automationId","repository","number")
);

-- CreateIndex
CREATE INDEX "DocsReviewCheck_repository_number_idx" ON "DocsReviewCheck"("repository", "number");

-- CreateIndex
CREATE UNIQUE INDEX "DocsReviewCheck_projectId_automationId_repository_headSha_key" ON "DocsReviewCheck"("projectId", "automationId", "repository", "headSha");
