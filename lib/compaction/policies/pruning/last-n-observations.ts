import type { Message } from "../../../trace/model";
import { emptyPlan, partKey, type PartRef, type PolicyAction } from "../../projection/types";
import { numParam } from "../params";
import { closestFitting, withTargetReport } from "../shared/target";
import type { Policy, PolicyContext } from "../types";
import { NOT_TOOL_OUTPUT } from "./object-costs";

/**
 * SWE-agent's `LastNObservations` history processor (sweagent/agent/history_processors.py): the last
 * n observations stay verbatim and every older one is replaced by
 * `Old environment output: (N lines omitted)`, N being the output's line count (Python
 * `str.splitlines`). Demonstration entries (`is_demo`) are neither counted nor replaced. SWE-agent
 * also spares its first observation, because in its history that entry is the instance template
 * (the task); Tracefold's importers make the task a user message, so every observation here is a
 * tool result and none is spared. The default n = 10 is the window JetBrains Research used for
 * observation masking in "The Complexity Trap: Simple Observation Masking Is as Efficient as LLM
 * Summarization for Agent Context Management" (Lindenbauer et al., DL4Code @ NeurIPS 2025,
 * arXiv 2508.21433): within SWE-agent on SWE-bench Verified, masking halved cost against the raw
 * agent (issue 16 quotes 53–57%) while matching — sometimes slightly beating — the solve rate of
 * LLM summarization.
 *
 * The processor runs before every model call, so there is no budget trigger: it fires whenever an
 * observation is older than the last n. Replaced results keep their call (the placeholder is still
 * the tool result) and are recorded as prune: nothing of the content survives but its line count.
 * Observations inside the protected latest turn stay. Harness target: n is the largest count of
 * newest observations whose older ones, replaced, bring the view to the target — "decrease n until
 * the view fits", from every observation kept down to none.
 */
export const LAST_N_OBSERVATIONS = 10;

export const lastNObservationsPolicy: Policy = {
  id: "last-n-observations",
  family: "harness",
  source:
    "SWE-agent LastNObservations history processor (sweagent/agent/history_processors.py: older observations become 'Old environment output: (N lines omitted)'); n = 10 after JetBrains Research, The Complexity Trap (arXiv 2508.21433)",
  description: "Keeps the newest 10 tool results verbatim and replaces each older one with 'Old environment output: (N lines omitted)'.",
  params: [
    {
      name: "n",
      default: LAST_N_OBSERVATIONS,
      description: "Observations (tool results) kept verbatim, newest first (SWE-agent's n; The Complexity Trap used 10).",
    },
  ],
  fires: (ctx, params) => observations(ctx.session.messages, ctx.cut).length > Math.max(0, Math.floor(numParam(params, "n"))),
  decide(ctx, params) {
    const all = observations(ctx.session.messages, ctx.cut);
    const replacements = all.map((ref) => replacementOf(ctx, ref));
    const n = ctx.targetTokens === undefined ? Math.max(0, Math.floor(numParam(params, "n"))) : nForTarget(ctx, replacements, ctx.targetTokens);
    const plan = emptyPlan();
    const actions: PolicyAction[] = [];
    let saved = 0;
    let retained = 0;
    for (const r of replacements.slice(0, Math.max(0, all.length - n))) {
      if (r.protected) {
        retained++;
        continue;
      }
      plan.parts.set(partKey(r.ref), { op: "replace", text: r.text, action: "prune" });
      saved += r.before - r.after;
      actions.push({
        target: r.target,
        action: "prune",
        reason: `older than the last ${n} observations: replaced by its line count`,
        rule: "last-n-observations/old-environment-output",
        tokensBefore: r.before,
        tokensAfter: r.after,
      });
    }
    const log = [`${all.length} observations in the prefix; keeping the last ${Math.min(n, all.length)} verbatim, replaced ${actions.length}`];
    if (retained > 0) log.push(`${retained} older observations sit in the protected latest turn and stay`);
    return withTargetReport(ctx, { plan, actions, log }, ctx.prefixTokens - saved, `n = ${n} observations`, NOT_TOOL_OUTPUT);
  },
};

/** SWE-agent's placeholder for an observation of `content`. */
export function oldEnvironmentOutput(content: string): string {
  return `Old environment output: (${splitlinesCount(content)} lines omitted)`;
}

/** `len(content.splitlines())` in Python: every line boundary Python knows, no trailing empty line. */
export function splitlinesCount(content: string): number {
  if (content === "") return 0;
  const lines = content.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  return lines.at(-1) === "" ? lines.length - 1 : lines.length;
}

/** Tool results of the prefix in order, demonstration messages left out. */
function observations(messages: readonly Message[], cut: number): PartRef[] {
  const refs: PartRef[] = [];
  for (let m = 0; m < cut; m++) {
    if (messages[m]!.meta?.isDemo === true) continue;
    messages[m]!.parts.forEach((part, p) => part.type === "tool_result" && refs.push({ message: m, part: p }));
  }
  return refs;
}

interface Replacement {
  ref: PartRef;
  target: string;
  text: string;
  before: number;
  after: number;
  protected: boolean;
}

function replacementOf(ctx: PolicyContext, ref: PartRef): Replacement {
  const part = ctx.session.messages[ref.message]!.parts[ref.part]!;
  const content = part.type === "tool_result" ? part.content : "";
  const target = ctx.index.functionAt.get(`${ref.message}:${ref.part}`) ?? `message:${ref.message}`;
  const text = oldEnvironmentOutput(content);
  const before = ctx.index.byId.get(target)?.tokens ?? ctx.tokenizer.count(content);
  return { ref, target, text, before, after: ctx.tokenizer.count(text), protected: ctx.protect.messages.has(ref.message) };
}

/** The largest n whose replacement of every older observation brings the view to the target. */
function nForTarget(ctx: PolicyContext, replacements: readonly Replacement[], target: number): number {
  const saved = [0];
  for (const r of replacements) saved.push(saved.at(-1)! + (r.protected ? 0 : r.before - r.after));
  const total = replacements.length;
  return closestFitting(0, total, (n) => ctx.prefixTokens - saved[total - n]!, target);
}
