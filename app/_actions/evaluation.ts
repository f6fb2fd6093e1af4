"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionFail, actionOk, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { cancelRun } from "@/server/evaluation/cancel-run";
import { createRun } from "@/server/evaluation/create-run";
import { kickEvalRunner } from "@/server/evaluation/eval-runner";
import { resumeRun } from "@/server/evaluation/resume-run";
import type { EvalRunStatus } from "@/server/evaluation/run-status";
import { hasLlmEndpoint } from "@/server/llm/effective-config";

const CreateSchema = z.object({
  name: z.string().max(200, "the name is at most 200 characters").optional(),
  settings: z.unknown(),
  /** A saved suite filter to run on; the server copies its filter into the settings. */
  savedFilterId: z.string().min(1, "filter id is required").optional(),
});
const RunIdSchema = z.string().min(1, "run id is required");

/** Reviewer: create a run from the form's settings and wake the runner; the run executes outside this request. */
export async function createEvaluationAction(input: unknown): Promise<ActionResult<{ runId: string; total: number }>> {
  const user = await requireUser("reviewer");
  const parsed = CreateSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues[0]!.message);
  const settings = parsed.data.settings as { judge?: unknown } | undefined;
  if (settings?.judge === "llm" && !(await hasLlmEndpoint(undefined, undefined, "judge"))) {
    return actionFail(
      "llm_unavailable",
      "The LLM judge needs an endpoint: an admin sets the judge model or the default endpoint on Admin → settings (or TRACEFOLD_LLM_JUDGE_* or TRACEFOLD_LLM_* on the server).",
      { judge: ["no LLM endpoint is configured"] },
    );
  }
  const db = getDb();
  const outcome = await createRun(db, {
    settings: parsed.data.settings,
    createdById: user.id,
    ...(parsed.data.name ? { name: parsed.data.name } : {}),
    ...(parsed.data.savedFilterId ? { savedFilterId: parsed.data.savedFilterId } : {}),
  });
  if (!outcome.ok) return actionFail(outcome.code, outcome.message, outcome.fieldErrors);
  kickEvalRunner(db);
  revalidatePath("/evaluations");
  return actionOk({ runId: outcome.runId, total: outcome.total });
}

/** Reviewer: stop a queued or running run (it keeps its results). */
export async function cancelEvaluationAction(runId: unknown): Promise<ActionResult<{ status: EvalRunStatus }>> {
  await requireUser("reviewer");
  return control(runId, (db, id) => cancelRun(db, id));
}

/** Reviewer: put a cancelled or failed run back in the queue; it resumes from its stored results. */
export async function resumeEvaluationAction(runId: unknown): Promise<ActionResult<{ status: EvalRunStatus }>> {
  await requireUser("reviewer");
  return control(runId, async (db, id) => {
    const outcome = await resumeRun(db, id);
    if (outcome.ok) kickEvalRunner(db);
    return outcome;
  });
}

async function control(
  runId: unknown,
  operation: (db: ReturnType<typeof getDb>, id: string) => Promise<Awaited<ReturnType<typeof cancelRun>>>,
): Promise<ActionResult<{ status: EvalRunStatus }>> {
  const id = RunIdSchema.safeParse(runId);
  if (!id.success) return actionFail("invalid_input", id.error.issues[0]!.message);
  const outcome = await operation(getDb(), id.data);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message);
  revalidatePath("/evaluations");
  return actionOk({ status: outcome.status });
}
