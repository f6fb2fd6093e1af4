-- Calibration queues (issue 16 item 6): gold units imported as review items (no evaluation run), the gold file's sha256, each item's unit
-- AlterTable
ALTER TABLE "ReviewQueue" ADD COLUMN     "sourceSha256" TEXT,
ALTER COLUMN "runId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "ReviewItem" ADD COLUMN     "unit" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "ReviewQueue_sourceSha256_key" ON "ReviewQueue"("sourceSha256");

