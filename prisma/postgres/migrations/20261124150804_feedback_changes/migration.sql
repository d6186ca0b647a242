-- CreateTable
CREATE TABLE "AnalyticsFeedbackChange" (
    "id" SERIAL NOT NULL,
    "feedbackId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "helpful" INTEGER,
    "comment" TEXT,

    CONSTRAINT "AnalyticsFeedbackChange_pkey" PRIMARY KEY ("id")
);
