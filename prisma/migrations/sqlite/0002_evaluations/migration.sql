-- CreateTable
CREATE TABLE "EvalRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "settings" TEXT NOT NULL,
    "sessionIds" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "workerId" TEXT,
    "heartbeatAt" DATETIME,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "EvalRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EvalResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "cut" INTEGER NOT NULL,
    "cutReason" TEXT NOT NULL,
    "sessionShare" REAL NOT NULL DEFAULT 0,
    "policy" TEXT NOT NULL,
    "prefixTokens" INTEGER NOT NULL DEFAULT 0,
    "window" INTEGER NOT NULL DEFAULT 0,
    "tokensAfter" INTEGER NOT NULL DEFAULT 0,
    "pruneRate" REAL NOT NULL DEFAULT 0,
    "noImpact" BOOLEAN NOT NULL DEFAULT false,
    "uncertain" BOOLEAN NOT NULL DEFAULT false,
    "missingByCategory" TEXT NOT NULL DEFAULT '{}',
    "verdict" TEXT NOT NULL DEFAULT 'null',
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "EvalResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "EvalRun_status_idx" ON "EvalRun"("status");

-- CreateIndex
CREATE INDEX "EvalResult_runId_policy_idx" ON "EvalResult"("runId", "policy");

-- CreateIndex
CREATE UNIQUE INDEX "EvalResult_runId_unitKey_key" ON "EvalResult"("runId", "unitKey");

