-- CreateTable
CREATE TABLE "SourcePullMerge" (
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "mergedAt" DATETIME NOT NULL,

    PRIMARY KEY ("repository", "number")
);
