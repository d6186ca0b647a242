-- DropTable
DROP TABLE "AnalyticsDayPage";

-- CreateTable
CREATE TABLE "AnalyticsDayViews" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "pageId" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "views" INTEGER NOT NULL,

    CONSTRAINT "AnalyticsDayViews_pkey" PRIMARY KEY ("projectId","day","pageId","kind")
);

-- CreateTable
CREATE TABLE "AnalyticsDaySet" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "pairs" BYTEA NOT NULL,

    CONSTRAINT "AnalyticsDaySet_pkey" PRIMARY KEY ("projectId","day","kind","part")
);
