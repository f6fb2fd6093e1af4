-- The newest label rows of a queue (server/review/label-cache.ts reads them on every open and progress refresh)
-- CreateIndex
CREATE INDEX "ReviewLabelRow_queueId_savedAt_idx" ON "ReviewLabelRow"("queueId", "savedAt");
