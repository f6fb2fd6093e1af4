import type { Db } from "../db/client";
import { hasLlmEndpoint } from "../llm/effective-config";
import { enqueueRolloutRun, type RolloutQueue } from "./rollout-jobs";
import { MAX_ROLLOUT_SESSIONS, RolloutSelectionSchema, RolloutSettingsSchema, type RolloutSelection, type RolloutSettings } from "./rollout-settings";

export interface CreateRolloutInput {
  name?: string;
  settings: unknown;
  selection: unknown;
  createdById?: string;
}

export type CreateRolloutOutcome =
  | { ok: true; runId: string; sessions: number }
  | {
      ok: false;
      code: "invalid_settings" | "llm_unavailable" | "empty_selection" | "too_many_sessions";
      message: string;
      fieldErrors?: Record<string, string[]>;
    };

/** What a run with the LLM planner is refused with when no endpoint serves the planner. */
export const NO_PLANNER_ENDPOINT =
  "The LLM planner needs an endpoint: an admin sets the planner model or the default endpoint on Admin → settings (or TRACEFOLD_LLM_PLANNER_* or TRACEFOLD_LLM_* on the server).";

/**
 * Creates a queued rollout run and queues its job (the run executes in a job worker, never in this
 * call). A run with the LLM planner is refused while no endpoint serves the planner (its own or the
 * default one, as server/llm/effective-config.ts decides), as the CLI refuses `--planner llm`. The selection is resolved to stored session ids now, in upload then ordinal order, so the
 * run (and a resume of it later) walks exactly these sessions even after more traces are imported.
 */
export async function createRollout(db: Db, queue: RolloutQueue, input: CreateRolloutInput): Promise<CreateRolloutOutcome> {
  const settings = RolloutSettingsSchema.safeParse(input.settings);
  const selection = RolloutSelectionSchema.safeParse(input.selection);
  if (!settings.success || !selection.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of settings.error?.issues ?? []) (fieldErrors[String(issue.path[0] ?? "settings")] ??= []).push(issue.message);
    for (const issue of selection.error?.issues ?? []) (fieldErrors.sessions ??= []).push(issue.message);
    const message = Object.entries(fieldErrors)
      .map(([field, messages]) => `${field}: ${messages.join("; ")}`)
      .join("; ");
    return { ok: false, code: "invalid_settings", message, fieldErrors };
  }
  if (settings.data.planner === "llm" && !(await hasLlmEndpoint(db, undefined, "planner")))
    return { ok: false, code: "llm_unavailable", message: NO_PLANNER_ENDPOINT, fieldErrors: { planner: ["no LLM endpoint is configured"] } };
  const sessionIds = await selectRolloutSessions(db, selection.data);
  if (sessionIds.length === 0)
    return {
      ok: false,
      code: "empty_selection",
      message: "no stored session matches the selection: upload traces first",
      fieldErrors: { sessions: ["no session"] },
    };
  if (sessionIds.length > MAX_ROLLOUT_SESSIONS)
    return {
      ok: false,
      code: "too_many_sessions",
      message: `the selection has more than ${MAX_ROLLOUT_SESSIONS.toLocaleString("en-US")} sessions: pick fewer (or use tracefold rollout)`,
    };
  const run = await db.rolloutRun.create({
    data: {
      name: input.name?.trim() || defaultName(settings.data, sessionIds.length),
      settings: JSON.stringify(settings.data),
      sessionIds: JSON.stringify(sessionIds),
      total: sessionIds.length,
      ...(input.createdById ? { createdById: input.createdById } : {}),
    },
    select: { id: true },
  });
  await enqueueRolloutRun(queue, run.id);
  return { ok: true, runId: run.id, sessions: sessionIds.length };
}

/** Stored session ids of a selection, in upload then ordinal order; picked ids that are not stored are dropped. */
export async function selectRolloutSessions(db: Db, selection: RolloutSelection): Promise<string[]> {
  const rows = await db.traceSession.findMany({
    where: selection.kind === "sessions" ? { id: { in: selection.ids } } : {},
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { uploadId: "asc" }, { ordinal: "asc" }],
    take: MAX_ROLLOUT_SESSIONS + 1,
  });
  return rows.map((r) => r.id);
}

function defaultName(settings: RolloutSettings, sessions: number): string {
  return `${settings.policies.join(", ")} on ${sessions} session${sessions === 1 ? "" : "s"}`;
}
