import { renderPlanXml, type PlanDecision } from "../render-plan";
import type { Planner, PlannerInput, PlannerOutput } from "../types";
import { collectFacts, type ConversationFacts, type PrefixFacts } from "./facts";
import { findFoldableTurns } from "./granularity";
import { findLiveHandles } from "./live-handles";
import { findSupersession } from "./supersession";
import { selectActions, type Candidate } from "./select";
import { findQuotedObjects } from "./verbatim";
import { findReferences } from "./references";
import { sizeRules, type SizingOptions } from "./sizing";
import { judgeFunction, type Verdict } from "./verdicts";

/**
 * The embedded planner (no model): seed 000's planner contract applied by rules over an anchor
 * analysis of the prefix. It emits Listing 2 XML, which goes through the same strict parser,
 * rehearsal and commit as an LLM planner's output — it gets no shortcut past the harness.
 * Deterministic and linear in the prefix.
 */
export interface RuleBasedOptions extends SizingOptions {
  /**
   * Fold a whole resolved turn of at least this many tokens (default 1,500), or of at least
   * `turnFoldMinShare` of the prefix when that is smaller (a short session's turns are short too).
   */
  turnFoldMinTokens?: number;
  /** Default 0.08. */
  turnFoldMinShare?: number;
  /** Newest share of the prefix treated as the working set (default 0.15). */
  recentShare?: number;
  /**
   * Compression bias: obsolete trace is always collected; folds are added, safest first and
   * coldest first, until the plan is estimated to remove this share of the prefix (default 0.6).
   * Seed 000 operates at 31–44% pruning; this aims further because every fold is recoverable and
   * spent coldest first, while the reserve of newest bodies still opens only to reach
   * `reserveShare`, so the extra reach comes from older, colder objects.
   */
  targetShare?: number;
  /**
   * The working-set reserve (tier 3) opens only when every safer action together is estimated to
   * remove less than this share of the prefix (default 0.34: just above the 30% compression
   * threshold, so the newest steps are folded only to let an otherwise pending plan commit).
   */
  reserveShare?: number;
}

export const RULE_BASED_PLANNER_ID = "rule-based";

/** A turn smaller than this is never folded whole: its pointer would cost about as much. */
const MIN_TURN_FOLD = 250;
/** Rough tokens the pointer left in a folded call's arguments costs. */
const CALL_POINTER = 80;
/** Rough tokens a mask's kept head and tail still cost. */
const MASK_RESIDUE = 150;

export function createRuleBasedPlanner(options: RuleBasedOptions = {}): Planner {
  return {
    id: RULE_BASED_PLANNER_ID,
    plan: (input) => Promise.resolve(planWithRules(input, options)),
  };
}

/** Synchronous core, exported for tests and benchmarks. */
export function planWithRules(input: PlannerInput, options: RuleBasedOptions = {}): PlannerOutput {
  const { verdictOptions, minFoldSavings, foldCost } = sizeRules(input, options);
  const facts = collectFacts(input, { recentShare: options.recentShare ?? 0.15 });
  const handles = findLiveHandles(input);
  const signals = { live: handles.byObject, quoted: findQuotedObjects(input), supersession: findSupersession(facts.functions) };
  const verdicts = new Map<string, Verdict>(facts.functions.map((f) => [f.object.id, judgeFunction(f, signals, verdictOptions)]));
  const turnTokens = (c: ConversationFacts) =>
    input.index.prefixTokens[Math.min(c.object.lastMessage, input.cut - 1) + 1]! - input.index.prefixTokens[c.object.firstMessage]!;
  const turns = findFoldableTurns(facts.conversations, facts.functions, {
    verdicts,
    referenced: handles.byTurn,
    turnTokens,
    minTokens: Math.max(MIN_TURN_FOLD, Math.min(options.turnFoldMinTokens ?? 1_500, (options.turnFoldMinShare ?? 0.08) * facts.prefixTokens)),
  });
  const refs = findReferences(input);
  const lastUseOf = (id: string, at: number) => Math.max(at, refs.lastUse.get(id) ?? -1);
  const turnLastUse = new Map<string, number>();
  for (const f of facts.functions) {
    if (!f.object.parentId) continue;
    turnLastUse.set(f.object.parentId, Math.max(turnLastUse.get(f.object.parentId) ?? -1, lastUseOf(f.object.id, f.object.firstMessage)));
  }
  const candidates: Candidate[] = turns.map((t) => {
    const c = facts.conversations.find((x) => x.object.id === t.id)!;
    return {
      decision: { action: "fold", kind: "conversation", id: t.id, reason: t.reason },
      saves: turnTokens(c) - foldCost(c.object),
      tier: t.tier,
      at: c.object.firstMessage,
      lastUse: Math.max(c.object.firstMessage, turnLastUse.get(t.id) ?? -1),
    };
  });
  for (const f of facts.functions) {
    const verdict = verdicts.get(f.object.id)!;
    if (!("action" in verdict)) continue;
    const tokens = f.object.tokens;
    const body = f.callBodyTokens > 0 ? f.callBodyTokens - CALL_POINTER : 0;
    const saves =
      verdict.action === "fold" ? tokens - foldCost(f.object) + body : verdict.action === "mask" ? tokens - MASK_RESIDUE : tokens + f.callBodyTokens;
    candidates.push({
      decision: { action: verdict.action, kind: "function", id: f.object.id, reason: verdict.reason },
      saves,
      tier: verdict.tier,
      at: f.object.firstMessage,
      lastUse: lastUseOf(f.object.id, f.object.firstMessage),
      ...(f.object.parentId ? { parent: f.object.parentId } : {}),
    });
  }
  // A harness target (matched budgets) replaces the compression bias, and the reserve opens
  // whenever the safer actions fall short of it.
  const targetShare = input.targetShare ?? options.targetShare ?? 0.6;
  const reserveShare = input.targetShare ?? options.reserveShare ?? 0.34;
  const { decisions } = selectActions(candidates, targetShare * facts.prefixTokens, minFoldSavings, reserveShare * facts.prefixTokens);
  return { xml: renderPlanXml(describeSession(input, facts, verdicts, decisions), decisions), planner: RULE_BASED_PLANNER_ID };
}

/** Listing 2's one-sentence summary: session type, likely dependencies, compression bias. */
function describeSession(input: PlannerInput, facts: PrefixFacts, verdicts: Map<string, Verdict>, decisions: PlanDecision[]): string {
  // A dependency-bearing result counts whether it stays visible (keep) or is folded with a pointer.
  const folded: Record<string, string> = { live_handle: "live_body", editable_body: "editable_artifact", exact_evidence: "source_evidence" };
  const count = (keep: string) => [...verdicts.values()].filter((v) => ("keep" in v ? v.keep === keep : v.reason.startsWith(`${folded[keep] ?? "-"}:`))).length;
  const acts = (action: string) => decisions.filter((d) => d.action === action).length;
  const latest = facts.conversations.at(-1);
  const latestShare = latest ? (facts.prefixTokens - input.index.prefixTokens[latest.object.firstMessage]!) / Math.max(1, facts.prefixTokens) : 0;
  const kind = latestShare > 0.5 ? "Long single-task agent run" : "Multi-turn agent session";
  return (
    `${kind} (${facts.conversations.length} user turns, ${facts.functions.length} tool results, ${facts.prefixTokens} prefix tokens); ` +
    `future steps likely need ${count("live_handle")} results with live handles, ${count("editable_body")} editable bodies, ` +
    `${count("contract")} contract reads and ${count("exact_evidence")} quoted results; ` +
    `light compression bias: fold ${acts("fold")}, mask ${acts("mask")}, prune ${acts("prune")}.`
  );
}
