import { replayCuts } from "@/lib/eval/cut-protocol";
import { selectSuite } from "@/lib/eval/suites";
import type { Db } from "../db/client";
import { loadSuiteSessions } from "./load-suite-sessions";
import { EvalSettingsSchema, type EvalSettings } from "./run-settings";

export interface CreateRunInput {
  name?: string;
  settings: unknown;
  createdById?: string;
}

export type CreateRunOutcome =
  | { ok: true; runId: string; sessions: number; total: number }
  | { ok: false; code: "invalid_settings" | "empty_suite"; message: string; fieldErrors?: Record<string, string[]> };

/**
 * Creates a queued evaluation run. The suite is resolved to session ids now and stored with the
 * settings, so the run (and a resume of it next week) evaluates exactly these sessions even after
 * more traces are imported. `total` is sessions' replay cuts × policies, as lib/eval counts units.
 * The caller kicks the runner (server/evals/eval-runner.ts); nothing runs inside this call.
 */
export async function createRun(db: Db, input: CreateRunInput): Promise<CreateRunOutcome> {
  const parsed = EvalSettingsSchema.safeParse(input.settings);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.join(".") || "settings"] ??= []).push(issue.message);
    const message = parsed.error.issues.map((i) => `${i.path.join(".") || "settings"}: ${i.message}`).join("; ");
    return { ok: false, code: "invalid_settings", message, fieldErrors };
  }
  const settings = parsed.data;
  const { sessionIds, cuts } = await resolveSuite(db, settings);
  if (sessionIds.length === 0 || cuts === 0) {
    return { ok: false, code: "empty_suite", message: sessionIds.length === 0 ? "the suite selects no sessions" : "the suite's sessions have no replay cuts (no assistant step after any cut)" };
  }
  const total = cuts * settings.policies.length;
  const run = await db.evalRun.create({
    data: {
      name: input.name?.trim() || defaultName(settings),
      settings: JSON.stringify(settings),
      sessionIds: JSON.stringify(sessionIds),
      status: "queued",
      total,
      ...(input.createdById ? { createdById: input.createdById } : {}),
    },
  });
  return { ok: true, runId: run.id, sessions: sessionIds.length, total };
}

/** Every stored session (oldest import first, then by position in its file), narrowed by the suite. */
export async function resolveSuite(db: Db, settings: EvalSettings): Promise<{ sessionIds: string[]; cuts: number }> {
  const rows = await db.traceSession.findMany({ select: { id: true }, orderBy: [{ createdAt: "asc" }, { uploadId: "asc" }, { ordinal: "asc" }] });
  const { sessions } = await loadSuiteSessions(db, rows.map((r) => r.id), settings);
  const chosen = selectSuite(sessions, settings.suite);
  const cuts = chosen.reduce((n, s) => n + replayCuts(s.session, s.index).length, 0);
  return { sessionIds: chosen.map((s) => s.session.id), cuts };
}

function defaultName(settings: EvalSettings): string {
  const suite = settings.suite.kind === "all" ? "all sessions" : settings.suite.kind === "hard" ? "Hard Set" : "filtered sessions";
  const policies = settings.policies.length === 1 ? settings.policies[0]!.id : `${settings.policies.length} policies`;
  return `${policies} on ${suite} (${settings.judge} judge)`;
}
