import type { ContextObject } from "../../context/objects";
import { normaliseToolName } from "../../context/tool-names";
import { emptyPlan, type EditPlan, type PolicyAction, type Sidecar } from "../../projection/types";
import { partText } from "../../../tokens/message-tokens";
import { numParam, strParam } from "../params";
import { foldWithPreview } from "../shared/object-edits";
import { reminderTokens, withTargetReport } from "../shared/target";
import type { Policy, PolicyContext, PolicyParams } from "../types";
import { foldIfSmaller, NOT_TOOL_OUTPUT } from "./object-costs";

/**
 * LangChain Deep Agents' large tool-result offloading (`FilesystemMiddleware`,
 * `tool_token_limit_before_evict` = 20,000 tokens, measured as 4 characters per token): a tool
 * result longer than the limit is written to the agent's filesystem and replaced in the conversation
 * by a message naming the file with a preview of the result's first lines (Deep Agents' earlier
 * message: "Here are the first 10 lines of the result"). Here the file is the harness's sidecar and
 * the whole in-view text is the harness's (`foldWithPreview`: the first `previewLines` lines, then
 * the fold pointer), so the payload stays restorable byte for byte and no policy writes its own
 * pointer. Deep Agents exempts its own self-truncating tools (ls, glob, grep, read_file, edit_file,
 * write_file); other harnesses' tools do not map onto those one to one, so nothing is exempt by
 * default — name tools in `excludeTools` to replay that.
 *
 * Deep Agents offloads when the result arrives, so there is no budget trigger: it fires whenever a
 * result in the prefix is over the limit. Results in the protected latest turn stay. Harness target:
 * the size limit is lowered — the largest results offloaded first — until the view fits; a result
 * whose preview and pointer would not be smaller than it is never offloaded.
 */
export const OFFLOAD = { limitTokens: 20_000, charsPerToken: 4, previewLines: 10 } as const;

export const offloadWithPreviewPolicy: Policy = {
  id: "offload-with-preview",
  family: "harness",
  source:
    "LangChain Deep Agents FilesystemMiddleware large tool-result eviction (tool_token_limit_before_evict = 20,000 tokens at 4 chars/token; preview of the first lines)",
  description: "Moves tool results over 20K tokens to a sidecar, keeping their first 10 lines and the fold pointer in view.",
  params: [
    {
      name: "limitTokens",
      default: OFFLOAD.limitTokens,
      description: "tool_token_limit_before_evict: offload results longer than this many tokens (Deep Agents: 20,000).",
    },
    { name: "previewLines", default: OFFLOAD.previewLines, description: "First lines of an offloaded result kept in view before the pointer." },
    {
      name: "excludeTools",
      default: "",
      description: "Comma-separated tool names never offloaded (raw or normalised); Deep Agents exempts ls, glob, grep, read_file, edit_file, write_file.",
    },
  ],
  fires: (ctx, params) => candidates(ctx, params).some((c) => c.chars > limitChars(params)),
  decide(ctx, params) {
    const lines = Math.max(0, Math.floor(numParam(params, "previewLines")));
    const all = candidates(ctx, params).filter((c) => !ctx.protect.messages.has(c.object.firstMessage));
    const plan = emptyPlan();
    const actions: PolicyAction[] = [];
    const sidecars: Sidecar[] = [];
    let saved = 0;
    const preview = (c: PolicyContext, p: EditPlan, o: ContextObject, reason: string, rule: string) => foldWithPreview(c, p, o, lines, reason, rule);
    const offload = (c: Candidate, reason: string): boolean => {
      const done = foldIfSmaller(ctx, plan, c.object, reason, "offload-with-preview/offload-large-result", preview);
      if (!done) return false;
      actions.push(done.action);
      sidecars.push(...done.sidecars);
      saved += done.action.tokensBefore - done.action.tokensAfter;
      return true;
    };
    const view = () => ctx.prefixTokens - saved + reminderTokens(ctx, plan.reminders);
    let limit = limitChars(params);
    const log: string[] = [];
    if (ctx.targetTokens === undefined) {
      for (const c of all)
        if (c.chars > limit)
          offload(
            c,
            `tool result of ${c.chars.toLocaleString("en-US")} chars is over the ${numParam(params, "limitTokens")}-token limit: offloaded with a ${lines}-line preview`,
          );
    } else {
      // Harness target: the largest results first, lowering the limit until the view fits.
      for (const c of [...all].sort((a, b) => b.chars - a.chars || a.object.firstMessage - b.object.firstMessage)) {
        if (view() <= ctx.targetTokens) break;
        if (
          offload(
            c,
            `largest results first until the view fits the harness target: ${c.chars.toLocaleString("en-US")} chars offloaded with a ${lines}-line preview`,
          )
        )
          limit = Math.min(limit, c.chars - 1);
      }
      log.push(`harness target ${ctx.targetTokens} tokens: size limit lowered to ${Math.ceil(limit / OFFLOAD.charsPerToken)} tokens`);
    }
    log.unshift(`${all.length} tool results outside the latest turn; offloaded ${actions.length} over the limit (~${saved} tokens moved to sidecars)`);
    const knob = `limit = ${Math.ceil(limit / OFFLOAD.charsPerToken)} tokens`;
    return withTargetReport(ctx, { plan, actions, sidecars, log }, view(), knob, NOT_TOOL_OUTPUT);
  },
};

interface Candidate {
  object: ContextObject;
  chars: number;
}

/** Tool results of the prefix that may be offloaded (not excluded), with their length in characters. */
function candidates(ctx: Pick<PolicyContext, "session" | "index" | "cut">, params: PolicyParams): Candidate[] {
  const excluded = new Set(
    strParam(params, "excludeTools")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean)
      .map(normaliseToolName),
  );
  const out: Candidate[] = [];
  for (const object of ctx.index.objects) {
    if (object.kind !== "function" || !object.part || object.firstMessage >= ctx.cut) continue;
    if (excluded.has(object.tool ?? "") || excluded.has(normaliseToolName(object.rawTool ?? ""))) continue;
    out.push({ object, chars: partText(ctx.session.messages[object.part.message]!.parts[object.part.part]!).length });
  }
  return out;
}

/** Deep Agents compares characters against 4 × the token limit. */
function limitChars(params: PolicyParams): number {
  return OFFLOAD.charsPerToken * numParam(params, "limitTokens");
}
