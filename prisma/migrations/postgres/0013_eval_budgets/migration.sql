-- Evaluation you can trust (issue 16): budgeted units (sweep / matched), net prune, restores, the visible and restorable readings and per-kind counts of each stored unit; nullable, so rows stored before read as they did
-- AlterTable
ALTER TABLE "EvalResult" ADD COLUMN     "budget" TEXT,
ADD COLUMN     "byKind" TEXT,
ADD COLUMN     "netPruneRate" DOUBLE PRECISION,
ADD COLUMN     "restorableNoImpact" BOOLEAN,
ADD COLUMN     "restoreTokens" INTEGER,
ADD COLUMN     "restores" INTEGER,
ADD COLUMN     "targetTokens" INTEGER,
ADD COLUMN     "visibleNoImpact" BOOLEAN;

-- CreateIndex
CREATE INDEX "EvalResult_runId_budget_idx" ON "EvalResult"("runId", "budget");

