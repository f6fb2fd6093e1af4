-- AlterTable
ALTER TABLE "ReviewItem" ADD COLUMN "assignees" TEXT;

-- CreateTable
CREATE TABLE "ReviewContext" (
    "key" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "cut" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewContext_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "ReviewContext_runId_idx" ON "ReviewContext"("runId");

-- CreateIndex
CREATE INDEX "ReviewContext_sessionId_idx" ON "ReviewContext"("sessionId");

-- AddForeignKey
ALTER TABLE "ReviewContext" ADD CONSTRAINT "ReviewContext_runId_fkey" FOREIGN KEY ("runId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewContext" ADD CONSTRAINT "ReviewContext_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "TraceSession"("id") ON DELETE CASCADE ON UPDATE CASCADE;
