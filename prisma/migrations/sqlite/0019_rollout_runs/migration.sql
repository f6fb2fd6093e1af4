-- Whole-session rollout runs in the studio (issue 14 item 4, server/rollout/): the run and one row per rolled-out session
-- CreateTable
CREATE TABLE "RolloutRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "heartbeatAt" DATETIME,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "RolloutRunSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "report" TEXT NOT NULL,
    "walks" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RolloutRunSession_runId_fkey" FOREIGN KEY ("runId") REFERENCES "RolloutRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RolloutRun_status_idx" ON "RolloutRun"("status");

-- CreateIndex
CREATE INDEX "RolloutRunSession_runId_idx" ON "RolloutRunSession"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "RolloutRunSession_runId_sessionId_key" ON "RolloutRunSession"("runId", "sessionId");
