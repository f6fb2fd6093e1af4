-- CreateTable
CREATE TABLE "EvalRun" (
    "id" TEXT NOT NULL,
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
    "heartbeatAt" TIMESTAMP(3),
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EvalRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvalResult" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "unitKey" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "cut" INTEGER NOT NULL,
    "cutReason" TEXT NOT NULL,
    "sessionShare" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "policy" TEXT NOT NULL,
    "prefixTokens" INTEGER NOT NULL DEFAULT 0,
    "window" INTEGER NOT NULL DEFAULT 0,
    "tokensAfter" INTEGER NOT NULL DEFAULT 0,
    "pruneRate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "noImpact" BOOLEAN NOT NULL DEFAULT false,
    "uncertain" BOOLEAN NOT NULL DEFAULT false,
    "missingByCategory" TEXT NOT NULL DEFAULT '{}',
    "verdict" TEXT NOT NULL DEFAULT 'null',
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalResult_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EvalRun_status_idx" ON "EvalRun"("status");

-- CreateIndex
CREATE INDEX "EvalResult_runId_policy_idx" ON "EvalResult"("runId", "policy");

-- CreateIndex
CREATE UNIQUE INDEX "EvalResult_runId_unitKey_key" ON "EvalResult"("runId", "unitKey");

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalResult" ADD CONSTRAINT "EvalResult_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

