-- Evaluation you can trust (issue 16): budgeted units (sweep / matched), net prune, restores, the visible and restorable readings and per-kind counts of each stored unit; nullable, so rows stored before read as they did
-- AlterTable
ALTER TABLE "EvalResult" ADD COLUMN "budget" TEXT;
ALTER TABLE "EvalResult" ADD COLUMN "byKind" TEXT;
ALTER TABLE "EvalResult" ADD COLUMN "netPruneRate" REAL;
ALTER TABLE "EvalResult" ADD COLUMN "restorableNoImpact" BOOLEAN;
ALTER TABLE "EvalResult" ADD COLUMN "restoreTokens" INTEGER;
ALTER TABLE "EvalResult" ADD COLUMN "restores" INTEGER;
ALTER TABLE "EvalResult" ADD COLUMN "targetTokens" INTEGER;
ALTER TABLE "EvalResult" ADD COLUMN "visibleNoImpact" BOOLEAN;

-- CreateIndex
CREATE INDEX "EvalResult_runId_budget_idx" ON "EvalResult"("runId", "budget");

