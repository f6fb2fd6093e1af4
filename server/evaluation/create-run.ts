import type { Db } from "../db/client";
import { countRunCuts } from "./count-run-cuts";
import { EvalSettingsSchema, unitsPerCut, type EvalSettings } from "./run-settings";
import { resolveSuite } from "./suites/resolve-suite";
import { findSavedFilter } from "./suites/saved-filters";

export interface CreateRunInput {
  name?: string;
  settings: unknown;
  /**
   * A saved suite filter (SavedSuiteFilter.id) to run on: its current filter and name are copied
   * into `settings.suite` (kind `filter`, or the Hard Set of the filtered sessions when the settings
   * ask for `hard`), so the run stays reproducible if the saved filter is edited or deleted later.
   */
  savedFilterId?: string;
  createdById?: string;
}

export type CreateRunOutcome =
  | { ok: true; runId: string; sessions: number; total: number }
  | { ok: false; code: "invalid_settings" | "empty_suite" | "unknown_filter"; message: string; fieldErrors?: Record<string, string[]> };

/**
 * Creates a queued evaluation run. The suite is resolved to session ids now and stored with the
 * settings, so the run (and a resume of it next week) evaluates exactly these sessions even after
 * more traces are imported. `total` is sessions' replay cuts × units per cut (each policy at its own
 * settings, at each sweep budget and matched), as lib/evaluation counts units.
 * The suite is resolved from cached session summaries (server/evaluation/suites), not by parsing
 * every stored trace (unless the run asks for other cut levels: see countRunCuts). The caller kicks the runner (server/evaluation/eval-runner.ts); nothing runs
 * inside this call.
 */
export async function createRun(db: Db, input: CreateRunInput): Promise<CreateRunOutcome> {
  const withFilter = input.savedFilterId === undefined ? input.settings : await applySavedFilter(db, input.settings, input.savedFilterId);
  if (withFilter === null)
    return {
      ok: false,
      code: "unknown_filter",
      message: "the saved filter no longer exists; pick another suite",
      fieldErrors: { suite: ["the saved filter no longer exists"] },
    };
  const parsed = EvalSettingsSchema.safeParse(withFilter);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.join(".") || "settings"] ??= []).push(issue.message);
    const message = parsed.error.issues.map((i) => `${i.path.join(".") || "settings"}: ${i.message}`).join("; ");
    return { ok: false, code: "invalid_settings", message, fieldErrors };
  }
  const settings = parsed.data;
  const resolved = await resolveSuite(db, settings.suite, settings.tokenizer);
  const sessionIds = resolved.sessionIds;
  const cuts = await countRunCuts(db, sessionIds, settings, resolved.cuts);
  if (sessionIds.length === 0 || cuts === 0) {
    return {
      ok: false,
      code: "empty_suite",
      message: sessionIds.length === 0 ? "the suite selects no sessions" : "the suite's sessions have no replay cuts (no assistant step after any cut)",
    };
  }
  const total = cuts * unitsPerCut(settings);
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

/** The settings with the saved filter as their suite; null when the filter is gone. */
async function applySavedFilter(db: Db, settings: unknown, id: string): Promise<unknown> {
  const saved = await findSavedFilter(db, id);
  if (!saved) return null;
  const base = typeof settings === "object" && settings !== null ? (settings as Record<string, unknown>) : {};
  const hard = (base.suite as { kind?: unknown } | undefined)?.kind === "hard";
  return { ...base, suite: { kind: hard ? "hard" : "filter", filter: saved.filter, name: saved.name } };
}

function defaultName(settings: EvalSettings): string {
  const suite = settings.suite;
  const label =
    suite.kind === "all"
      ? "all sessions"
      : suite.kind === "hard"
        ? suite.name
          ? `Hard Set of ${suite.name}`
          : "Hard Set"
        : (suite.name ?? "filtered sessions");
  const policies = settings.policies.length === 1 ? settings.policies[0]!.id : `${settings.policies.length} policies`;
  return `${policies} on ${label} (${settings.judge} judge)`;
}
