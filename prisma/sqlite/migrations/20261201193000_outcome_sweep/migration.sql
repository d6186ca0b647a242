-- AlterTable
ALTER TABLE "DocsPullRequestMerge" ADD COLUMN "commentClaimedAt" DATETIME;
ALTER TABLE "DocsPullRequestMerge" ADD COLUMN "commentDays" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "DocsPullRequestMerge" ADD COLUMN "commentId" TEXT;
ALTER TABLE "DocsPullRequestMerge" ADD COLUMN "settledDays" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "DocsPullRequestMerge_mergedAt_idx" ON "DocsPullRequestMerge"("mergedAt");
