-- AlterTable
ALTER TABLE "DocsPullRequestMerge" ADD COLUMN     "commentClaimedAt" TIMESTAMP(3),
ADD COLUMN     "commentDays" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "commentId" TEXT,
ADD COLUMN     "settledDays" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "DocsPullRequestMerge_mergedAt_idx" ON "DocsPullRequestMerge"("mergedAt");
