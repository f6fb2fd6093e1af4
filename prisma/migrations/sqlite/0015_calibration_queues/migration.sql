-- Calibration queues (issue 16 item 6): gold units imported as review items (no evaluation run: ReviewQueue.runId nullable), the gold file's sha256, each item's unit
-- AlterTable
ALTER TABLE "ReviewItem" ADD COLUMN "unit" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ReviewQueue" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "runId" TEXT,
    "overlap" INTEGER NOT NULL DEFAULT 1,
    "leaseMs" INTEGER NOT NULL DEFAULT 900000,
    "seed" INTEGER NOT NULL DEFAULT 0,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "policyA" TEXT,
    "policyB" TEXT,
    "cuts" TEXT,
    "sampleSize" INTEGER,
    "sampledFrom" INTEGER,
    "blind" BOOLEAN NOT NULL DEFAULT false,
    "sourceSha256" TEXT
);
INSERT INTO "new_ReviewQueue" ("blind", "createdAt", "createdById", "cuts", "id", "kind", "leaseMs", "name", "overlap", "policyA", "policyB", "runId", "sampleSize", "sampledFrom", "seed") SELECT "blind", "createdAt", "createdById", "cuts", "id", "kind", "leaseMs", "name", "overlap", "policyA", "policyB", "runId", "sampleSize", "sampledFrom", "seed" FROM "ReviewQueue";
DROP TABLE "ReviewQueue";
ALTER TABLE "new_ReviewQueue" RENAME TO "ReviewQueue";
CREATE INDEX "ReviewQueue_runId_idx" ON "ReviewQueue"("runId");
CREATE INDEX "ReviewQueue_sourceSha256_idx" ON "ReviewQueue"("sourceSha256");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

