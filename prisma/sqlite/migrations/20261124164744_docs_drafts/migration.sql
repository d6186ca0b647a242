-- AlterTable
ALTER TABLE "AutomationRun" ADD COLUMN "pullNumber" INTEGER;

-- CreateTable
CREATE TABLE "DocsDraft" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "automationId" TEXT NOT NULL,
    "repository" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "requestedBy" TEXT NOT NULL,
    "jobId" TEXT,
    "pages" TEXT NOT NULL,
    "sourceState" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "DocsDraft_repository_number_idx" ON "DocsDraft"("repository", "number");

-- CreateIndex
CREATE UNIQUE INDEX "DocsDraft_projectId_automationId_repository_number_key" ON "DocsDraft"("projectId", "automationId", "repository", "number");
