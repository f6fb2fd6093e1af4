import type { JudgedRun, JudgeIndex } from "../judge/types";
import type { Session } from "../../trace/model";
import { fitEntries, type Entry } from "./bound";
import { impactedTurns, pruneDiffEntries, type ImpactedTurn } from "./diff";
import { futureEnd, futureEntries, viewEntries } from "./render";

/**
 * The diff-grounded judge packet (seed 000, "Implementation Details" and Appendix "Evaluation
 * Artifacts"): for one policy at one cut, the plan (the edits, by object id), the retained prefix
 * rendered from the projected view with object ids, one `context_prune_diff` block per impacted
 * turn (what was removed, folded, masked or summarised, and what replaced it), and the real future
 * turns. The diff is judge-only counterfactual evidence; the retained prefix is all the agent saw.
 *
 * Blind by construction: the text names no policy and no rule id, so a judge cannot favour a
 * policy by name (the A/B judge relies on this). Bounded: the whole text is at most `maxChars`
 * characters however long the session is; long parts keep head and tail with a sized elision
 * marker and surplus entries are replaced by a count (see bound.ts). Sections get shares of the
 * budget in the order plan → future → diffs → prefix, each passing what it did not use on.
 */
export interface JudgePacketInput {
  session: Session;
  index: JudgeIndex;
  /** The policy's result at the cut (its `cut`, `view`, `actions`, `sidecars`). */
  result: JudgedRun;
  /** Exclusive end of the future window; default from `futureRequests`. */
  futureEnd?: number;
}

export interface JudgePacketOptions {
  /** Upper bound on `text` in characters (default 60,000; at least 4,000). */
  maxChars?: number;
  /** User requests after the cut included in the future window (default 2). */
  futureRequests?: number;
}

export interface JudgePacketSections {
  overview: string;
  plan: string;
  prefix: string;
  diffs: string;
  future: string;
}

export interface JudgePacket {
  sessionId: string;
  cut: number;
  /** Policy id, for the caller's bookkeeping only: it is not in the text. */
  policy: string;
  futureEnd: number;
  sections: JudgePacketSections;
  /** The packet as the judge reads it. */
  text: string;
  /** Every object id the packet shows (view, diffs, plan): the ids a culprit may name. */
  objectIds: string[];
  impacted: ImpactedTurn[];
  /** Whether anything was elided for length. */
  elided: boolean;
}

export const DEFAULT_PACKET_CHARS = 60_000;
export const MIN_PACKET_CHARS = 4_000;
const SHARES = { plan: 0.08, future: 0.27, diffs: 0.3 } as const;
const NONE = "(none)";

export const SECTION_TITLES = {
  plan: "=== PLAN: the edits the policy made ===",
  prefix: "=== RETAINED PREFIX: the context the agent would see after the edits ===",
  diffs: "=== CONTEXT_PRUNE_DIFF: judge-only evidence of what the edits removed or replaced ===",
  future: "=== REAL FUTURE TURNS: what actually happened after the cut ===",
} as const;

export function buildJudgePacket(input: JudgePacketInput, options: JudgePacketOptions = {}): JudgePacket {
  const { session, index, result } = input;
  const maxChars = options.maxChars ?? DEFAULT_PACKET_CHARS;
  if (!(maxChars >= MIN_PACKET_CHARS)) throw new RangeError(`maxChars must be at least ${MIN_PACKET_CHARS}, got ${maxChars}`);
  if (result.sessionId !== session.id) throw new RangeError(`result is for session ${result.sessionId}, not ${session.id}`);
  const cut = result.cut;
  const end = Math.max(cut, Math.min(session.messages.length, input.futureEnd ?? futureEnd(session.messages, cut, options.futureRequests ?? 2)));
  const impacted = impactedTurns(session.messages, index, result);
  const overview = overviewLine(result, end);
  const skeleton = assemble({ overview, plan: "", prefix: "", diffs: "", future: "" });
  // Slack for the "(none)" placeholders an empty section is shown as.
  const room = maxChars - skeleton.length - 4 * NONE.length;
  let available = room;
  let carry = 0;
  let elided = false;
  const fit = (entries: Entry[], share: number | undefined, options: Parameters<typeof fitEntries>[2]) => {
    const budget = share === undefined ? available : Math.floor(share * room) + carry;
    const fitted = fitEntries(entries, Math.max(0, Math.min(budget, available)), options);
    available -= fitted.text.length;
    carry = Math.max(0, budget - fitted.text.length);
    elided ||= fitted.elided;
    return fitted.text || NONE;
  };
  const plan = fit(planEntries(result), SHARES.plan, { separator: "\n", noun: "edits", minBody: 0 });
  const future = fit(futureEntries(session.messages, cut, end), SHARES.future, { keep: "head", noun: "future messages" });
  const partCap = Math.max(
    240,
    Math.floor(
      (SHARES.diffs * maxChars) /
        Math.max(
          1,
          impacted.reduce((s, t) => s + t.parts.length, 0),
        ),
    ),
  );
  const diffEntries = pruneDiffEntries(impacted, Math.min(partCap, 6_000));
  elided ||= diffEntries.elided;
  const diffs = fit(diffEntries.entries, SHARES.diffs, { noun: "impacted turns" });
  const prefix = fit(viewEntries(result.view), undefined, { noun: "messages" });
  const sections = { overview, plan, prefix, diffs, future };
  return {
    sessionId: session.id,
    cut,
    policy: result.policy,
    futureEnd: end,
    sections,
    text: assemble(sections),
    objectIds: collectIds(result, impacted),
    impacted,
    elided,
  };
}

/** The packet text: overview, then plan, retained prefix, diffs and future under fixed titles. */
export function assemble(s: JudgePacketSections): string {
  return [
    s.overview,
    SECTION_TITLES.plan,
    s.plan,
    SECTION_TITLES.prefix,
    s.prefix,
    SECTION_TITLES.diffs,
    s.diffs,
    SECTION_TITLES.future,
    s.future,
    "=== END ===",
  ].join("\n\n");
}

function overviewLine(result: JudgedRun, end: number): string {
  const pct = (result.pruneRate * 100).toFixed(1);
  return [
    `Session ${result.sessionId}, cut at message ${result.cut}: the prefix is messages 0–${result.cut - 1}, the future shown is messages ${result.cut}–${end - 1}.`,
    `Prefix tokens ${result.tokensBefore} → ${result.tokensAfter} after the edits (${pct}% pruned); ${result.actions.length} edits, ${result.rejected.length} refused by the harness.`,
  ].join("\n");
}

function planEntries(result: JudgedRun): Entry[] {
  const lines: Entry[] = result.actions.map((a) => ({
    header: `- ${a.action} ${a.target}: ${flat(a.reason)} (${a.tokensBefore} → ${a.tokensAfter} tokens)`,
    body: "",
  }));
  for (const r of result.rejected) lines.push({ header: `- refused ${r.target}: ${flat(r.reason)}`, body: "" });
  if (result.summary !== undefined)
    lines.push({ header: `- a ${result.summary.length}-character summary was inserted (shown in the retained prefix)`, body: "" });
  return lines.length ? lines : [{ header: "- no edits: the prefix is unchanged", body: "" }];
}

const OBJECT_ID = /^(conversation:user:\d+|function:[a-z0-9_]+:\d+)$/;

function collectIds(result: JudgedRun, impacted: readonly ImpactedTurn[]): string[] {
  const ids = new Set<string>();
  for (const message of result.view) for (const part of message.parts) if (part.objectId) ids.add(part.objectId);
  for (const turn of impacted) {
    ids.add(turn.turnId);
    for (const part of turn.parts) if (part.objectId) ids.add(part.objectId);
  }
  for (const action of result.actions) ids.add(action.target);
  return [...ids].filter((id) => OBJECT_ID.test(id)).sort();
}

function flat(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 200 ? `${one.slice(0, 197)}…` : one;
}
