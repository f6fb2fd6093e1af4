import { z } from "zod";
import type { ContextIndex } from "../context/objects";
import { FORMAT_IDS, type Session } from "../trace/model";
import { replayCuts, type ReplayCutOptions } from "./cut-protocol";

/**
 * Suites a replay runs over (seed 000, Table 1): every session, the Hard Set of the sessions with
 * the highest sustained tool pressure, or a saved filter.
 */
export interface SuiteSessionRef {
  session: Session;
  index: ContextIndex;
}

export interface ToolPressure {
  /** Share of prefix tokens held by tool results at each replay cut. */
  atCuts: number[];
  /**
   * The median of `atCuts` — pressure that lasts across the session, not one huge dump. A session
   * without replay cuts gets the whole-session share (and is not eligible for the Hard Set).
   */
  sustained: number;
}

export function toolPressure(session: Session, index: ContextIndex, options: ReplayCutOptions = {}): ToolPressure {
  const toolTokensBefore = new Array<number>(session.messages.length + 1).fill(0);
  const perMessage = new Array<number>(session.messages.length).fill(0);
  for (const object of index.objects) if (object.kind === "function" && object.part) perMessage[object.part.message]! += object.tokens;
  for (let m = 0; m < session.messages.length; m++) toolTokensBefore[m + 1] = toolTokensBefore[m]! + perMessage[m]!;
  const share = (cut: number) => (index.prefixTokens[cut]! > 0 ? toolTokensBefore[cut]! / index.prefixTokens[cut]! : 0);
  const atCuts = replayCuts(session, index, options).map((c) => share(c.cut));
  return { atCuts, sustained: atCuts.length > 0 ? median(atCuts) : share(session.messages.length) };
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
 * The Hard Set: eligible sessions (at least one replay cut and `minToolResults` tool results)
 * ranked by sustained tool pressure, highest first; ties go to the larger session (more prefix
 * tokens), then the smaller id, so the choice is deterministic. Returns the chosen sessions in
 * rank order.
 */
export function hardSet<T extends SuiteSessionRef>(sessions: readonly T[], options: HardSetOptions = {}, cutOptions: ReplayCutOptions = {}): T[] {
  const minTools = options.minToolResults ?? 3;
  const ranked = sessions
    .map((s) => ({ s, pressure: toolPressure(s.session, s.index, cutOptions), tools: s.index.objects.filter((o) => o.kind === "function").length }))
    .filter((r) => r.pressure.atCuts.length > 0 && r.tools >= minTools)
    .sort(
      (a, b) =>
        b.pressure.sustained - a.pressure.sustained ||
        b.s.index.prefixTokens.at(-1)! - a.s.index.prefixTokens.at(-1)! ||
        (a.s.session.id < b.s.session.id ? -1 : a.s.session.id > b.s.session.id ? 1 : 0),
    );
  const size = options.size ?? Math.ceil(ranked.length * (options.fraction ?? 0.1));
  return ranked.slice(0, size).map((r) => r.s);
}

/** A saved filter: serialisable, every field optional, all given fields must hold. */
export const SuiteFilterSchema = z.object({
  formats: z.array(z.enum(FORMAT_IDS)).optional(),
  /** The session used a model whose name contains one of these (case-insensitive). */
  models: z.array(z.string().min(1)).optional(),
  /** The session has a result of one of these tools (normalised or raw name, case-insensitive). */
  tools: z.array(z.string().min(1)).optional(),
  minMessages: z.number().int().nonnegative().optional(),
  maxMessages: z.number().int().nonnegative().optional(),
  minTokens: z.number().int().nonnegative().optional(),
  maxTokens: z.number().int().nonnegative().optional(),
  /** The trace recorded at least one native compaction. */
  hasNativeCompaction: z.boolean().optional(),
});
export type SuiteFilter = z.infer<typeof SuiteFilterSchema>;

export function matchesFilter(session: Session, index: ContextIndex, filter: SuiteFilter): boolean {
  const tokens = index.prefixTokens.at(-1) ?? 0;
  const messages = session.messages.length;
  if (filter.formats && !filter.formats.includes(session.format)) return false;
  if (filter.models && !filter.models.some((m) => session.models.some((used) => used.toLowerCase().includes(m.toLowerCase())))) return false;
  if (filter.tools) {
    const wanted = new Set(filter.tools.map((t) => t.toLowerCase()));
    const used = index.objects.some((o) => o.kind === "function" && (wanted.has(o.tool?.toLowerCase() ?? "") || wanted.has(o.rawTool?.toLowerCase() ?? "")));
    if (!used) return false;
  }
  if (filter.minMessages !== undefined && messages < filter.minMessages) return false;
  if (filter.maxMessages !== undefined && messages > filter.maxMessages) return false;
  if (filter.minTokens !== undefined && tokens < filter.minTokens) return false;
  if (filter.maxTokens !== undefined && tokens > filter.maxTokens) return false;
  if (filter.hasNativeCompaction !== undefined && filter.hasNativeCompaction !== session.compactions.length > 0) return false;
  return true;
}

/** Which sessions a replay runs over: all, the Hard Set (optionally of a filtered pool), or a filter. */
export const SuiteSpecSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("hard"), options: HardSetOptionsSchema.optional(), filter: SuiteFilterSchema.optional() }),
  z.object({ kind: z.literal("filter"), filter: SuiteFilterSchema }),
]);
export type SuiteSpec = z.infer<typeof SuiteSpecSchema>;

export function selectSuite<T extends SuiteSessionRef>(sessions: readonly T[], spec: SuiteSpec, cutOptions: ReplayCutOptions = {}): T[] {
  if (spec.kind === "all") return [...sessions];
  const pool = spec.filter ? sessions.filter((s) => matchesFilter(s.session, s.index, spec.filter!)) : sessions;
  return spec.kind === "filter" ? [...pool] : hardSet(pool, spec.options, cutOptions);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
