import { isUserRequest } from "../../context/objects";
import { emptyPlan, partKey, type PolicyAction } from "../../projection/types";
import { countPartTokens } from "../../../tokens/message-tokens";
import { numParam } from "../params";
import { restoredTokens, withTargetReport } from "../shared/target";
import type { Policy } from "../types";

/**
 * DeepSeek-V3.2's "Discard-all" context management (DeepSeek-V3.2 technical report, §4.4, context
 * management of the search agent): once token usage exceeds 80% of the context window, the agent
 * discards all previous tool-call history and continues — a reset like Anthropic's new-context tool.
 * The report itself was not reachable offline; its 80% trigger is confirmed by secondary write-ups,
 * and the reading here is: what survives a reset is what is not tool-call history — the system
 * prompt and instructions, the user's requests — and the harness-protected latest turn (the request
 * and newest steps the agent is working on). Every assistant step (its reasoning, text and tool
 * calls) and every tool result before that turn goes; a user message that also carries tool results
 * keeps its own words and loses the results.
 *
 * Recorded as prune (nothing of the discarded history remains), one action per tool result and one
 * per turn for the assistant steps. Harness target: a reset has one setting, so the trigger steps
 * aside (the harness decided to compact here) and the reset happens as always; the view lands where
 * it lands, usually well below the target, and when what survives a reset is itself larger than the
 * target the report says so.
 */
export const DISCARD_ALL_TRIGGER = 0.8;

export const discardAllPolicy: Policy = {
  id: "discard-all",
  family: "harness",
  source:
    "DeepSeek-V3.2 technical report §4.4 (search-agent context management): Discard-all — past 80% of the context window, discard all previous tool-call history",
  description:
    "Past 80% of the window, discards every assistant step and tool result before the latest turn; keeps the system prompt, the user requests and the latest turn.",
  params: [{ name: "triggerRatio", default: DISCARD_ALL_TRIGGER, description: "Reset when the prefix exceeds this share of the window (DeepSeek-V3.2: 80%)." }],
  fires: (ctx, params) => ctx.prefixTokens > numParam(params, "triggerRatio") * ctx.window,
  decide(ctx, params) {
    const trigger = numParam(params, "triggerRatio") * ctx.window;
    if (ctx.targetTokens === undefined && ctx.prefixTokens <= trigger) {
      return {
        plan: emptyPlan(),
        actions: [],
        log: [
          `trigger not reached: ${ctx.prefixTokens} ≤ ${Math.round(trigger)} tokens (${numParam(params, "triggerRatio") * 100}% of the window); nothing discarded`,
        ],
      };
    }
    const plan = emptyPlan();
    const byTarget = new Map<string, PolicyAction>();
    const book = (target: string, tokens: number) => {
      const known = byTarget.get(target);
      if (known) known.tokensBefore += tokens;
      else
        byTarget.set(target, {
          target,
          action: "prune",
          reason: "tool-call history discarded by the reset",
          rule: "discard-all/tool-call-history",
          tokensBefore: tokens,
          tokensAfter: 0,
        });
    };
    let discarded = 0;
    for (let m = 0; m < ctx.cut; m++) {
      if (ctx.protect.messages.has(m)) continue;
      const message = ctx.session.messages[m]!;
      if (message.role === "system") continue;
      const request = isUserRequest(message);
      message.parts.forEach((part, p) => {
        if (part.type !== "tool_result") return;
        const id = ctx.index.functionAt.get(`${m}:${p}`);
        const tokens = (id ? ctx.index.byId.get(id)?.tokens : undefined) ?? countPartTokens(part, ctx.tokenizer);
        book(id ?? `message:${m}`, tokens);
        if (request) {
          plan.parts.set(partKey({ message: m, part: p }), { op: "drop" });
          discarded += tokens;
        }
      });
      if (request) continue;
      plan.dropMessages.add(m);
      discarded += ctx.index.messageTokens[m]!;
      const results = message.parts.reduce(
        (sum, part, p) =>
          part.type === "tool_result"
            ? sum + (ctx.index.byId.get(ctx.index.functionAt.get(`${m}:${p}`) ?? "")?.tokens ?? countPartTokens(part, ctx.tokenizer))
            : sum,
        0,
      );
      if (ctx.index.messageTokens[m]! > results) book(ctx.index.turnOf[m] ?? `message:${m}`, ctx.index.messageTokens[m]! - results);
    }
    const actions = [...byTarget.values()];
    const fired =
      ctx.prefixTokens > trigger
        ? `reset: ${ctx.prefixTokens} > ${Math.round(trigger)} tokens (${numParam(params, "triggerRatio") * 100}% of the window)`
        : "reset: harness target set, the trigger steps aside";
    const log = [
      `${fired}; discarded ${plan.dropMessages.size} messages of tool-call history (~${discarded} tokens); the system prompt, the user requests and the latest turn stay`,
    ];
    const estimated = ctx.prefixTokens - discarded + restoredTokens(ctx, plan.dropMessages);
    return withTargetReport(
      ctx,
      { plan, actions, log },
      estimated,
      "reset (discard-all has no other setting)",
      "a reset keeps the system prompt, every user request and the latest turn, and those alone are larger than the target",
    );
  },
};
