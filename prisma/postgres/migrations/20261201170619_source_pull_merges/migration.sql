-- CreateTable
CREATE TABLE "SourcePullMerge" (
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "mergedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SourcePullMerge_pkey" PRIMARY KEY ("repository","number")
);
