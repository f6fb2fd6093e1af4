-- The model that planned and the model that judged an evaluation run (issue 13 item 2), shown on the run page
-- AlterTable
ALTER TABLE "EvalRun" ADD COLUMN "plannerModel" TEXT;
ALTER TABLE "EvalRun" ADD COLUMN "judgeModel" TEXT;
