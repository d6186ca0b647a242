-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "AnalyticsDayPage";
PRAGMA foreign_keys=on;

-- CreateTable
CREATE TABLE "AnalyticsDayViews" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "pageId" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "views" INTEGER NOT NULL,

    PRIMARY KEY ("projectId", "day", "pageId", "kind")
);

-- CreateTable
CREATE TABLE "AnalyticsDaySet" (
    "projectId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "kind" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "pairs" BLOB NOT NULL,

    PRIMARY KEY ("projectId", "day", "kind", "part")
);
