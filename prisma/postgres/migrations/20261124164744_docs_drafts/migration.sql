-- AlterTable
ALTER TABLE "AutomationRun" ADD COLUMN     "pullNumber" INTEGER;

-- CreateTable
CREATE TABLE "DocsDraft" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "automationId" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "requestedBy" TEXT NOT NULL,
    "jobId" TEXT,
    "pages" TEXT NOT NULL,
    "sourceState" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DocsDraft_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DocsDraft_repository_number_idx" ON "DocsDraft"("repository", "number");

-- CreateIndex
CREATE UNIQUE INDEX "DocsDraft_projectId_automationId_repository_number_key" ON "DocsDraft"("projectId", "automationId", "repository", "number");
