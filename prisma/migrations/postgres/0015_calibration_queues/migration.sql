-- Calibration queues (issue 16 item 6): gold units imported as review items (no evaluation run: ReviewQueue.runId nullable), the gold file's sha256, each item's unit
-- AlterTable
ALTER TABLE "ReviewQueue" ADD COLUMN     "sourceSha256" TEXT;
ALTER TABLE "ReviewQueue" ALTER COLUMN "runId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "ReviewItem" ADD COLUMN     "unit" TEXT;

-- CreateIndex
CREATE INDEX "ReviewQueue_sourceSha256_idx" ON "ReviewQueue"("sourceSha256");

