-- The model that planned and the model that judged an evaluation run (issue 13 item 2) and its LLM usage and cost per purpose (item 4), shown on the run page
-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN "plannerModel" TEXT;
ALTER TABLE "EvalRun" ADD COLUMN "judgeModel" TEXT;
ALTER TABLE "EvalRun" ADD COLUMN "llmUsage" TEXT;
