import type { JudgeIndex } from "./types";
import type { FailureCategory } from "../../scenario/failure-categories";
import type { Session } from "../../trace/model";
import { extractCandidates } from "./candidates";
import { readableText } from "./part-texts";
import type { Dependency, LostBy } from "./types";
import type { ViewText } from "./view-texts";

/**
 * The Table 7 category of a missing dependency: which future action became unsupported. Rules, in
 * order (the first that applies wins):
 * 1. recovery routing — the value is in a sidecar whose pointer is visible but unrouted (decided by
 *    the caller, see `routing.ts`);
 * 2. behavioral contract — a user constraint, or a value planted by an instruction-file read
 *    (CLAUDE.md, AGENTS.md, GEMINI.md, CONVENTIONS.md, CONTRIBUTING.md, .cursorrules, …);
 * 3. live state — a url/path/id whose *slot* (the value with every alphanumeric run containing a
 *    digit replaced by `#`, e.g. `JOB-#`, `https://docs.example.com/d/#`) has another value still
 *    visible that entered the prefix earlier: the stale handle stayed, the current one was lost;
 * 4. locator / handle — other urls, paths and ids;
 * 5. evidence detail — numbers and identifiers, and verbatim spans lost to mask or truncation
 *    (sparse middle evidence);
 * 6. verbatim source — other verbatim spans.
 */
export const INSTRUCTION_FILE_RE = /(?:CLAUDE|AGENTS|GEMINI|CONVENTIONS|CONTRIBUTING)\.md\b|\.cursorrules\b|\.clinerules\b|copilot-instructions\.md\b/;

export interface CategoryContext {
  session: Session;
  index: JudgeIndex;
  /** Values of the same slot still visible, with the earliest prefix message they come from. */
  olderSibling: (dependency: Dependency) => boolean;
}

export function categorize(dependency: Dependency, lostBy: LostBy | undefined, ctx: CategoryContext): FailureCategory {
  if (dependency.kind === "constraint" || isInstructionSource(dependency, ctx)) return "behavioral_contract";
  if (dependency.kind === "url" || dependency.kind === "path" || dependency.kind === "id") {
    return ctx.olderSibling(dependency) ? "live_state" : "locator_handle";
  }
  if (dependency.kind === "verbatim" && lostBy?.action !== "mask" && lostBy?.action !== "truncate") return "verbatim_source";
  return "evidence_detail";
}

function isInstructionSource(dependency: Dependency, ctx: CategoryContext): boolean {
  const { message, part } = dependency.plantedAt;
  const planted = ctx.session.messages[message]?.parts[part];
  if (!planted) return false;
  if (planted.type === "tool_result") {
    const id = ctx.index.functionAt.get(`${message}:${part}`);
    const call = id ? ctx.index.byId.get(id)?.call : undefined;
    const callPart = call ? ctx.session.messages[call.message]?.parts[call.part] : undefined;
    return callPart?.type === "tool_call" && INSTRUCTION_FILE_RE.test(callPart.arguments);
  }
  return INSTRUCTION_FILE_RE.test(readableText(planted).slice(0, 300));
}

/** `JOB-14254` → `JOB-#`; undefined when the value has no varying run or too little fixed text. */
export function slotKey(value: string): string | undefined {
  const key = value.replace(/[A-Za-z0-9]+/g, (run) => (/\d/.test(run) ? "#" : run));
  if (!key.includes("#") || (key.match(/[A-Za-z]/g)?.length ?? 0) < 2) return undefined;
  return key;
}

/**
 * Builds `olderSibling` for the missing locators of one check: scans the view once for urls, paths
 * and ids sharing a slot with one of them, and dates each sibling by the earliest source message
 * of a view part showing it (summary and reminder text is dated by its first prefix occurrence).
 */
export function siblingFinder(missing: readonly Dependency[], texts: readonly ViewText[], session: Session, cut: number): (d: Dependency) => boolean {
  const slots = new Map<string, Set<string>>();
  for (const d of missing) {
    const key = d.kind === "url" || d.kind === "path" || d.kind === "id" ? slotKey(d.value) : undefined;
    if (key) slots.set(key, (slots.get(key) ?? new Set()).add(d.value));
  }
  if (slots.size === 0) return () => false;
  const ages = new Map<string, number>();
  let lookups = 0;
  for (const { text, origin } of texts) {
    extractCandidates(
      text,
      (c) => {
        const key = slotKey(c.value);
        if (!key || !slots.has(key) || slots.get(key)!.has(c.value)) return;
        // Dating harness-inserted text costs a prefix scan; a handful is plenty to decide.
        const age = typeof origin === "number" ? origin : lookups++ < MAX_PREFIX_LOOKUPS ? firstPrefixMessage(session, cut, c.value) : Infinity;
        ages.set(c.value, Math.min(ages.get(c.value) ?? Infinity, age));
      },
      { locatorsOnly: true },
    );
  }
  const oldestBySlot = new Map<string, number>();
  for (const [value, age] of ages) {
    const key = slotKey(value)!;
    oldestBySlot.set(key, Math.min(oldestBySlot.get(key) ?? Infinity, age));
  }
  return (d) => {
    const key = slotKey(d.value);
    return key !== undefined && (oldestBySlot.get(key) ?? Infinity) < d.plantedAt.message;
  };
}

const MAX_PREFIX_LOOKUPS = 8;

function firstPrefixMessage(session: Session, cut: number, value: string): number {
  for (let m = 0; m < cut; m++) if (session.messages[m]!.parts.some((p) => readableText(p).includes(value))) return m;
  return Infinity;
}
