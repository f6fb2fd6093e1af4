-- The LLM planner's answers during a rollout walk, so the studio can show the view at a call without asking the model again
-- AlterTable
ALTER TABLE "RolloutRunSession" ADD COLUMN "llmReplies" TEXT;
