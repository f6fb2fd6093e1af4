-- AlterTable
ALTER TABLE "ReviewItem" ADD COLUMN "assignees" TEXT;

-- CreateTable
CREATE TABLE "ReviewContext" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "cut" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewContext_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewContext_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "TraceSession" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ReviewContext_runId_idx" ON "ReviewContext"("runId");

-- CreateIndex
CREATE INDEX "ReviewContext_sessionId_idx" ON "ReviewContext"("sessionId");
