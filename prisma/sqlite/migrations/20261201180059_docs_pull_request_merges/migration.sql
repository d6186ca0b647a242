-- CreateTable
CREATE TABLE "DocsPullRequestMerge" (
    "jobId" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "mergedAt" DATETIME NOT NULL,
    "pages" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "DocsPullRequestMerge_projectId_mergedAt_idx" ON "DocsPullRequestMerge"("projectId", "mergedAt");
