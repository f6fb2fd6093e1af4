-- Whole-session rollout runs in the studio (issue 14 item 4, server/rollout/): the run and one row per rolled-out session
-- CreateTable
CREATE TABLE "RolloutRun" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "settings" TEXT NOT NULL,
    "sessionIds" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "report" TEXT,
    "workerId" TEXT,
    "heartbeatAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "RolloutRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RolloutRunSession" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "report" TEXT NOT NULL,
    "walks" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RolloutRunSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RolloutRun_status_idx" ON "RolloutRun"("status");

-- CreateIndex
CREATE INDEX "RolloutRunSession_runId_idx" ON "RolloutRunSession"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "RolloutRunSession_runId_sessionId_key" ON "RolloutRunSession"("runId", "sessionId");

-- AddForeignKey
ALTER TABLE "RolloutRunSession" ADD CONSTRAINT "RolloutRunSession_runId_fkey" FOREIGN KEY ("runId") REFERENCES "RolloutRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
