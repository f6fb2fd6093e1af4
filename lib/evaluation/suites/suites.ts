import { z } from "zod";
import type { ContextIndex } from "../../compaction/context/objects";
import type { Session } from "../../trace/model";
import type { ReplayCutOptions } from "../cuts/cut-protocol";
import { summarizeSession, type SessionSummary } from "./session-summary";
import { matchesSummary, SuiteFilterSchema, type SuiteFilter } from "./suite-filter";

export { toolPressure, type ToolPressure } from "../cuts/tool-pressure";
export { SuiteFilterSchema, type SuiteFilter } from "./suite-filter";

/**
 * Suites a replay runs over (seed 000, Table 1): every session, the Hard Set of the sessions with
 * the highest sustained tool pressure, or a saved filter. Selection works on session summaries
 * (lib/evaluation/suites/session-summary.ts) through `selectSummaries`, the one function the CLI (from parsed
 * traces) and the studio (from cached summaries of stored sessions) both call.
 */
export interface SuiteSessionRef {
  session: Session;
  index: ContextIndex;
}

export const HardSetOptionsSchema = z.object({
  /** Exact size; wins over `fraction`. */
  size: z.number().int().positive().optional(),
  /** Share of the eligible sessions, rounded up (default 0.1: seed 000 keeps 33 of 332). */
  fraction: z.number().positive().max(1).optional(),
  /** Sessions need this many tool results to be eligible (default 3). */
  minToolResults: z.number().int().nonnegative().optional(),
});
export type HardSetOptions = z.infer<typeof HardSetOptionsSchema>;

/**
 * The Hard Set over summaries: eligible sessions (at least one replay cut and `minToolResults`
 * tool results) ranked by sustained tool pressure, highest first; ties go to the larger session
 * (more tokens), then the smaller id, so the choice is deterministic. Rank order.
 */
export function rankHardSet<T extends SessionSummary>(summaries: readonly T[], options: HardSetOptions = {}): T[] {
  const minTools = options.minToolResults ?? 3;
  const ranked = summaries
    .filter((s) => s.cuts > 0 && s.toolResults >= minTools)
    .sort((a, b) => b.sustainedPressure - a.sustainedPressure || b.tokens - a.tokens || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const size = options.size ?? Math.ceil(ranked.length * (options.fraction ?? 0.1));
  return ranked.slice(0, size);
}

/** The Hard Set of parsed sessions (see rankHardSet), in rank order. */
export function hardSet<T extends SuiteSessionRef>(sessions: readonly T[], options: HardSetOptions = {}, cutOptions: ReplayCutOptions = {}): T[] {
  return fromSummaries(sessions, (summaries) => rankHardSet(summaries, options), cutOptions);
}

/** Does a parsed session satisfy the filter? (Summarises it; selection of many goes through selectSummaries.) */
export function matchesFilter(session: Session, index: ContextIndex, filter: SuiteFilter): boolean {
  return matchesSummary(summarizeSession(session, index), filter);
}

/** The saved filter's name when the suite came from one (display only; `filter` is what selects). */
const FilterName = z.string().trim().min(1).max(100, "the filter name is at most 100 characters").optional();

/** Which sessions a replay runs over: all, the Hard Set (optionally of a filtered pool), or a filter. */
export const SuiteSpecSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("hard"), options: HardSetOptionsSchema.optional(), filter: SuiteFilterSchema.optional(), name: FilterName }),
  z.object({ kind: z.literal("filter"), filter: SuiteFilterSchema, name: FilterName }),
]);
export type SuiteSpec = z.infer<typeof SuiteSpecSchema>;

/**
 * The suite's sessions among `summaries`: input order for `all` and filters, rank order for the
 * Hard Set. Summaries must all be of one tokenizer (their `tokens` and cut counts depend on it).
 */
export function selectSummaries<T extends SessionSummary>(summaries: readonly T[], spec: SuiteSpec): T[] {
  if (spec.kind === "all") return [...summaries];
  const pool = spec.filter ? summaries.filter((s) => matchesSummary(s, spec.filter!)) : summaries;
  return spec.kind === "filter" ? [...pool] : rankHardSet(pool, spec.options);
}

/** selectSummaries over parsed sessions (the CLI): each is summarised once. */
export function selectSuite<T extends SuiteSessionRef>(sessions: readonly T[], spec: SuiteSpec, cutOptions: ReplayCutOptions = {}): T[] {
  if (spec.kind === "all") return [...sessions];
  return fromSummaries(sessions, (summaries) => selectSummaries(summaries, spec), cutOptions);
}

function fromSummaries<T extends SuiteSessionRef>(
  sessions: readonly T[],
  select: (summaries: (SessionSummary & { at: number })[]) => { at: number }[],
  cutOptions: ReplayCutOptions,
): T[] {
  const summaries = sessions.map((s, at) => ({ ...summarizeSession(s.session, s.index, cutOptions), at }));
  return select(summaries).map((s) => sessions[s.at]!);
}
