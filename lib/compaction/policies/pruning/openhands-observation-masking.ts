import type { Message } from "../../../trace/model";
import { emptyPlan, partKey, type PolicyAction } from "../../projection/types";
import { partText } from "../../../tokens/message-tokens";
import { numParam, strParam } from "../params";
import { closestFitting, withTargetReport } from "../shared/target";
import type { Policy, PolicyContext } from "../types";
import { NOT_TOOL_OUTPUT } from "./object-costs";

/**
 * OpenHands `ObservationMaskingCondenser` (notes/compaction-harnesses.md §5, HEAD 156d0686): every
 * Observation whose event index is `< len(view) − attention_window` is replaced by an
 * `AgentCondensationObservation('<MASKED>')`. Sizes are event counts, not tokens. The config default
 * `attention_window` is 100 (`condenser_config.py`; the class constructor's default is 5). It runs on
 * every step, so it has no budget trigger: it fires whenever an observation is outside the window.
 *
 * Events from canonical messages: each tool call is an action event and each tool result an
 * observation event; a message with neither (user or assistant text, system prompt) is one event.
 * Masked observations keep their call (the placeholder stays a tool result) and are recorded as
 * prune: nothing of the content survives.
 *
 * Harness target (matched budgets): the attention window is derived from the target — the largest
 * window whose masking brings the view to it (oldest observations first, as the condenser does).
 */
export const openhandsObservationMaskingPolicy: Policy = {
  id: "openhands-observation-masking",
  family: "harness",
  source: "OpenHands ObservationMaskingCondenser (openhands/memory/condenser/impl, config attention_window=100; notes/compaction-harnesses.md §5)",
  description: "Masks every tool observation older than the newest attentionWindow events with <MASKED>.",
  params: [
    {
      name: "attentionWindow",
      default: 100,
      description: "Events (not tokens) kept unmasked at the end of the view (OpenHands config default 100; class default 5).",
    },
    { name: "placeholder", default: "<MASKED>", description: "Text a masked observation is replaced with (OpenHands' AgentCondensationObservation content)." },
  ],
  fires: (ctx, params) => maskableObservations(ctx.session.messages, ctx.cut, numParam(params, "attentionWindow")).length > 0,
  decide(ctx, params) {
    const plan = emptyPlan();
    const placeholder = strParam(params, "placeholder");
    const placeholderTokens = ctx.tokenizer.count(placeholder);
    const window =
      ctx.targetTokens === undefined ? numParam(params, "attentionWindow") : windowForTarget(ctx, placeholder, placeholderTokens, ctx.targetTokens);
    const actions: PolicyAction[] = [];
    let retained = 0;
    let saved = 0;
    for (const ref of maskableObservations(ctx.session.messages, ctx.cut, window)) {
      const part = ctx.session.messages[ref.message]!.parts[ref.part]!;
      if (partText(part) === placeholder) continue;
      if (ctx.protect.messages.has(ref.message)) {
        retained++;
        continue;
      }
      const target = ctx.index.functionAt.get(`${ref.message}:${ref.part}`) ?? `message:${ref.message}`;
      const tokensBefore = ctx.index.byId.get(target)?.tokens ?? ctx.tokenizer.count(partText(part));
      plan.parts.set(partKey(ref), { op: "replace", text: placeholder, action: "prune" });
      saved += tokensBefore - placeholderTokens;
      actions.push({
        target,
        action: "prune",
        reason: `observation outside the ${window}-event attention window`,
        rule: "openhands-observation-masking/outside-attention-window",
        tokensBefore,
        tokensAfter: placeholderTokens,
      });
    }
    const log = [`attention window ${window} events; masked ${actions.length} observations`];
    if (retained > 0) log.push(`${retained} observations outside the window sit in the protected latest turn and stay`);
    return withTargetReport(ctx, { plan, actions, log }, ctx.prefixTokens - saved, `attentionWindow = ${window} events`, NOT_TOOL_OUTPUT);
  },
};

interface Observation {
  message: number;
  part: number;
  event: number;
}

/** Every tool result of the prefix with its event index, in order, and the number of events. */
function observationEvents(messages: readonly Message[], cut: number): { events: number; observations: Observation[] } {
  const observations: Observation[] = [];
  let events = 0;
  for (let m = 0; m < cut; m++) {
    let counted = 0;
    messages[m]!.parts.forEach((part, p) => {
      if (part.type === "tool_result") observations.push({ message: m, part: p, event: events + counted });
      if (part.type === "tool_result" || part.type === "tool_call") counted++;
    });
    events += Math.max(1, counted);
  }
  return { events, observations };
}

/** Tool results whose event index is below `events − window`, in order. */
export function maskableObservations(messages: readonly Message[], cut: number, window: number): { message: number; part: number }[] {
  const { events, observations } = observationEvents(messages, cut);
  const limit = events - window;
  return observations.filter((o) => o.event < limit).map(({ message, part }) => ({ message, part }));
}

/**
 * Under a harness target, the attention window (events kept unmasked) is the largest one whose
 * masking — the condenser's own rule, every observation older than the window — brings the view
 * to the target.
 */
function windowForTarget(ctx: PolicyContext, placeholder: string, placeholderTokens: number, target: number): number {
  const { events, observations } = observationEvents(ctx.session.messages, ctx.cut);
  // saved[i]: tokens masking the i oldest observations saves (protected or already-placeholder ones save nothing).
  const saved = [0];
  for (const o of observations) {
    const part = ctx.session.messages[o.message]!.parts[o.part]!;
    const id = ctx.index.functionAt.get(`${o.message}:${o.part}`);
    const tokens = (id ? ctx.index.byId.get(id)?.tokens : undefined) ?? ctx.tokenizer.count(partText(part));
    const skip = ctx.protect.messages.has(o.message) || partText(part) === placeholder;
    saved.push(saved.at(-1)! + (skip ? 0 : tokens - placeholderTokens));
  }
  const maskedAt = (window: number) => {
    let n = 0;
    while (n < observations.length && observations[n]!.event < events - window) n++;
    return n;
  };
  return closestFitting(0, events, (window) => ctx.prefixTokens - saved[maskedAt(window)]!, target);
}
