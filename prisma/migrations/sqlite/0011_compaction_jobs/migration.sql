-- Studio compactions that call the LLM run as durable jobs (server/policies/compaction-jobs/); the page polls this row
-- CreateTable
CREATE TABLE "CompactionJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "cut" INTEGER,
    "window" INTEGER,
    "params" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "result" TEXT,
    "errorCode" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "workerId" TEXT,
    "heartbeatAt" DATETIME,
    "requestedById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    CONSTRAINT "CompactionJob_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "TraceSession" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "CompactionJob_status_idx" ON "CompactionJob"("status");

-- CreateIndex
CREATE INDEX "CompactionJob_sessionId_idx" ON "CompactionJob"("sessionId");
