-- CreateTable
CREATE TABLE "ProjectDocsAccess" (
    "projectId" TEXT NOT NULL PRIMARY KEY,
    "public" BOOLEAN NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
