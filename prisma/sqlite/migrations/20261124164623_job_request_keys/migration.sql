-- AlterTable
ALTER TABLE "AgentJobMessage" ADD COLUMN "requestKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "AgentJobMessage_projectId_requestKey_key" ON "AgentJobMessage"("projectId", "requestKey");
