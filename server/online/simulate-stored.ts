import { z } from "zod";
import type { Prices } from "@/lib/rollout/billed-cost";
import { simulateSuite, type SimSuiteReport, type SuiteSimSession } from "@/lib/online/simulation/simulate-suite";
import { findPolicy } from "@/lib/compaction/policies/registry";
import type { Db } from "../db/client";
import { loadSessionForWalk } from "../trace/session/load-analyzed-session";

/** Which stored sessions to simulate: every one, one trace format, or the ones picked by id. */
export const SimSelectionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("format"), format: z.string().min(1, "format: pick a trace format") }),
  z.object({
    kind: z.literal("sessions"),
    ids: z.array(z.string().min(1)).min(1, "sessions: pick at least one session").max(2_000, "sessions: at most 2,000"),
  }),
]);
export type SimSelection = z.infer<typeof SimSelectionSchema>;

/** Sessions a single simulation may replay: bounds one request's work (the CLI has no bound). */
export const MAX_SIM_SESSIONS = 2_000;

/** Stored session ids of a selection, in upload then ordinal order (the order the CLI reads a directory is not ours to copy). */
export async function selectSimSessions(db: Db, selection: SimSelection): Promise<string[]> {
  const where = selection.kind === "format" ? { format: selection.format } : selection.kind === "sessions" ? { id: { in: selection.ids } } : {};
  const rows = await db.traceSession.findMany({
    where,
    select: { id: true },
    orderBy: [{ createdAt: "asc" }, { uploadId: "asc" }, { ordinal: "asc" }],
    take: MAX_SIM_SESSIONS + 1,
  });
  return rows.map((r) => r.id);
}

export interface SimulateStoredOptions {
  policyId: string;
  trigger?: number;
  window?: number;
  prices?: Prices;
  onProgress?: (done: number, total: number) => void;
  /** Stops between sessions (the client went away): nothing is kept, so nothing needs undoing. */
  signal?: AbortSignal;
}

export class SimulationRefused extends Error {}

/**
 * The studio's *Simulate from traces*: loads the stored sessions (each with the tokenizer it was
 * imported with) and runs the same `simulateSuite` as `tracefold simulate`, yielding the event loop
 * between sessions so other requests keep being served. Session ids in the report are the traces'
 * own ids (as the CLI prints them); `source` is the upload's file name.
 */
export async function simulateStoredSessions(db: Db, sessionIds: readonly string[], options: SimulateStoredOptions): Promise<SimSuiteReport> {
  const policy = findPolicy(options.policyId);
  if (!policy) throw new SimulationRefused(`unknown policy ${options.policyId}`);
  if (sessionIds.length === 0) throw new SimulationRefused("no stored session matches the selection: upload traces first");
  if (sessionIds.length > MAX_SIM_SESSIONS)
    throw new SimulationRefused(
      `the selection has more than ${MAX_SIM_SESSIONS.toLocaleString("en-US")} sessions: pick a format or fewer sessions (or use tracefold simulate)`,
    );
  // One session in memory at a time: a selection of 2,000 long sessions must not be loaded whole.
  async function* load(): AsyncGenerator<SuiteSimSession> {
    for (const id of sessionIds) {
      options.signal?.throwIfAborted();
      const loaded = await loadSessionForWalk(db, id);
      if (loaded) yield { session: loaded.session, tokenizer: loaded.tokenizer, source: loaded.session.messages[0]?.source.file ?? "" };
    }
  }
  return simulateSuite(load(), policy, {
    total: sessionIds.length,
    ...(options.trigger !== undefined ? { trigger: options.trigger } : {}),
    ...(options.window !== undefined ? { window: options.window } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
    onSession: async (done, total) => {
      options.onProgress?.(done, total);
      await new Promise((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
    },
  });
}
