import { createRun } from "../../evaluation/create-run";
import type { Db } from "../../db/client";
import { hasLlmEndpoint } from "../../llm/effective-config";

export type StartRunOutcome = { ok: true; runId: string; total: number } | { ok: false; code: string; message: string; fieldErrors?: Record<string, string[]> };

/**
 * `POST /api/v1/runs`: creates an evaluation run from the same settings the studio's run form sends
 * (the route then wakes the runner); the run executes in the job workers, its state at
 * `GET /api/v1/runs/{id}`.
 */
export async function startRun(db: Db, input: { name?: string | undefined; settings: unknown }, createdById: string | null): Promise<StartRunOutcome> {
  const judge = (input.settings as { judge?: unknown } | undefined)?.judge;
  if (judge === "llm" && !(await hasLlmEndpoint(undefined, undefined, "judge"))) {
    return {
      ok: false,
      code: "llm_unavailable",
      message:
        "the LLM judge needs an endpoint: an admin sets the judge model or the default endpoint on Admin → settings (or TRACEFOLD_LLM_JUDGE_* or TRACEFOLD_LLM_* on the server)",
    };
  }
  const outcome = await createRun(db, { settings: input.settings, ...(createdById ? { createdById } : {}), ...(input.name ? { name: input.name } : {}) });
  if (!outcome.ok) return outcome;
  return { ok: true, runId: outcome.runId, total: outcome.total };
}
