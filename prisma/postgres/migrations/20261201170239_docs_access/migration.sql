-- CreateTable
CREATE TABLE "ProjectDocsAccess" (
    "projectId" TEXT NOT NULL,
    "public" BOOLEAN NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProjectDocsAccess_pkey" PRIMARY KEY ("projectId")
);
