-- CreateTable
CREATE TABLE "AnalyticsFeedbackChange" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "feedbackId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "helpful" INTEGER,
    "comment" TEXT
);
