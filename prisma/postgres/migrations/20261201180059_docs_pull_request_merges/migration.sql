-- CreateTable
CREATE TABLE "DocsPullRequestMerge" (
    "jobId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "mergedAt" TIMESTAMP(3) NOT NULL,
    "pages" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DocsPullRequestMerge_pkey" PRIMARY KEY ("jobId")
);

-- CreateIndex
CREATE INDEX "DocsPullRequestMerge_projectId_mergedAt_idx" ON "DocsPullRequestMerge"("projectId", "mergedAt");
