import type { Db } from "../db/client";
import { parseLlmUsage, type LlmUsage } from "../llm/usage-recorder";
import { isEvalRunStatus, type EvalRunStatus } from "./run-status";
import { EvalSettingsSchema, type EvalSettings } from "./run-settings";

/** A run as the studio shows it (no Prisma row types past server/). */
export interface EvalRunSummary {
  id: string;
  name: string;
  status: EvalRunStatus;
  cancelRequested: boolean;
  done: number;
  total: number;
  failed: number;
  error: string | null;
  /** Null when the stored settings no longer parse (shown as an error, never guessed). */
  settings: EvalSettings | null;
  sessions: number;
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** `<provider>:<model>` that planned / judged (server/evaluation/run-models.ts); null: no LLM did, or not run yet. */
  plannerModel: string | null;
  judgeModel: string | null;
  /** Calls, tokens and USD per purpose so far (empty: no LLM call recorded). */
  llmUsage: LlmUsage;
}

const SELECT = {
  id: true,
  name: true,
  status: true,
  cancelRequested: true,
  done: true,
  total: true,
  failed: true,
  error: true,
  settings: true,
  sessionIds: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  plannerModel: true,
  judgeModel: true,
  llmUsage: true,
  createdBy: { select: { email: true } },
} as const;

type Row = {
  id: string;
  name: string;
  status: string;
  cancelRequested: boolean;
  done: number;
  total: number;
  failed: number;
  error: string | null;
  settings: string;
  sessionIds: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  plannerModel: string | null;
  judgeModel: string | null;
  llmUsage: string | null;
  createdBy: { email: string } | null;
};

export function toSummary(row: Row): EvalRunSummary {
  const settings = EvalSettingsSchema.safeParse(safeJson(row.settings));
  return {
    id: row.id,
    name: row.name,
    status: isEvalRunStatus(row.status) ? row.status : "failed",
    cancelRequested: row.cancelRequested,
    done: row.done,
    total: row.total,
    failed: row.failed,
    error: row.error ?? (settings.success ? null : "the stored settings are invalid"),
    settings: settings.success ? settings.data : null,
    sessions: (safeJson(row.sessionIds) as unknown[] | null)?.length ?? 0,
    createdBy: row.createdBy?.email ?? null,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    plannerModel: row.plannerModel,
    judgeModel: row.judgeModel,
    llmUsage: parseLlmUsage(row.llmUsage),
  };
}

export async function getRun(db: Db, runId: string): Promise<EvalRunSummary | null> {
  const row = await db.evalRun.findUnique({ where: { id: runId }, select: SELECT });
  return row ? toSummary(row) : null;
}

/** Newest first. */
export async function listRuns(db: Db, limit = 200): Promise<EvalRunSummary[]> {
  const rows = await db.evalRun.findMany({ select: SELECT, orderBy: { createdAt: "desc" }, take: limit });
  return rows.map(toSummary);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
