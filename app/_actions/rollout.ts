"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionFail, actionOk, type ActionResult } from "@/server/action-result";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getJobQueue } from "@/server/jobs/process-queue";
import { cancelRollout } from "@/server/rollout/cancel-rollout";
import { createRollout } from "@/server/rollout/create-rollout";
import { enqueueRolloutRun } from "@/server/rollout/rollout-jobs";
import type { RolloutStatus } from "@/server/rollout/rollout-status";
import { resumeRollout } from "@/server/rollout/resume-rollout";

const CreateSchema = z.object({
  name: z.string().max(200, "the name is at most 200 characters").optional(),
  /** Checked field by field by server/rollout/rollout-settings.ts (RolloutSettingsSchema, RolloutSelectionSchema). */
  settings: z.record(z.string(), z.unknown()),
  selection: z.record(z.string(), z.unknown()),
});
const RunIdSchema = z.string().min(1, "run id is required").max(100);

/** Reviewer: create a rollout run and queue its job; it executes in a job worker, outside this request. */
export async function createRolloutAction(input: unknown): Promise<ActionResult<{ runId: string; sessions: number }>> {
  const user = await requireUser("reviewer");
  const parsed = CreateSchema.safeParse(input);
  if (!parsed.success) return actionFail("invalid_input", parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "));
  const outcome = await createRollout(getDb(), getJobQueue(), {
    settings: parsed.data.settings,
    selection: parsed.data.selection,
    createdById: user.id,
    ...(parsed.data.name ? { name: parsed.data.name } : {}),
  });
  if (!outcome.ok) return actionFail(outcome.code, outcome.message, outcome.fieldErrors);
  revalidatePath("/rollouts");
  return actionOk({ runId: outcome.runId, sessions: outcome.sessions });
}

/** Reviewer: stop a queued or running rollout (the sessions stored so far are kept). */
export async function cancelRolloutAction(runId: unknown): Promise<ActionResult<{ status: RolloutStatus }>> {
  await requireUser("reviewer");
  const id = RunIdSchema.safeParse(runId);
  if (!id.success) return actionFail("invalid_input", id.error.issues[0]!.message);
  const outcome = await cancelRollout(getDb(), id.data);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message);
  revalidatePath(`/rollouts/${id.data}`);
  return actionOk({ status: outcome.status });
}

/** Reviewer: put a cancelled or failed rollout back in the queue; it continues after the sessions it stored. */
export async function resumeRolloutAction(runId: unknown): Promise<ActionResult<{ status: RolloutStatus }>> {
  await requireUser("reviewer");
  const id = RunIdSchema.safeParse(runId);
  if (!id.success) return actionFail("invalid_input", id.error.issues[0]!.message);
  const outcome = await resumeRollout(getDb(), id.data);
  if (!outcome.ok) return actionFail(outcome.code, outcome.message);
  await enqueueRolloutRun(getJobQueue(), id.data);
  revalidatePath(`/rollouts/${id.data}`);
  return actionOk({ status: outcome.status });
}
