import { numParam } from "../params";
import { capItemLength, OPENHANDS_EVENT_CAP } from "../pretrim/cap-item-length";
import type { Policy, PolicyContext, PolicyDecision } from "../types";
import { compactWithSummary, keepAsIs } from "./collapse";
import { fitSummaryTarget, keptBySplit, keptTooLarge, reportSummaryTarget, summarizeWithinTarget, withSummaryCap, type SummaryFit } from "./fit-target";
import { safeBoundaries, snapBack } from "./timeline";

/** compaction-harnesses.md §5 (openhands/core/config/condenser_config.py LLMSummarizingCondenserConfig defaults). */
export const OPENHANDS = { keepFirst: 1, maxSize: 100, maxEventLength: 10_000 } as const;

const INSTRUCTIONS =
  "Keep a running state summary of the forgotten events for the agent, with the fields USER_CONTEXT (essential user requirements and constraints), TASK_TRACKING (tasks with ids and statuses), COMPLETED, PENDING, CURRENT_STATE, CODE_STATE (files, functions, data structures), TESTS (failing cases, errors), CHANGES, DEPS and VERSION_CONTROL_STATUS. Keep exact identifiers.";

/**
 * OpenHands LLMSummarizingCondenser. Sizes are event counts (one message ≈ one event here).
 * Trigger: the view holds more than max_size = 100 events. Condensation: target = max_size // 2;
 * keep the first keep_first = 1 events and the newest target − keep_first − 1 events; the forgotten
 * middle (each event middle-truncated to max_event_length = 10,000 chars) becomes one summary event
 * inserted at summary_offset = keep_first. The tail start is moved back to a safe boundary so no
 * action loses its observation. (Server sessions use keep_first 4, max_size 120: set the params.)
 * Harness target: the number of newest events kept is derived from the target (the condenser's own
 * order: the middle is forgotten, the head and the newest events stay).
 */
export const openhandsSummarizingPolicy: Policy = {
  id: "openhands-summarizing",
  family: "harness",
  source: "compaction-harnesses.md §5 — All-Hands-AI/OpenHands LLMSummarizingCondenser: keep_first 1, max_size 100, max_event_length 10,000",
  description: "OpenHands: past 100 events, keeps the first event and the newest 48 and replaces the middle with one summary event.",
  params: [
    { name: "keepFirst", default: OPENHANDS.keepFirst, description: "keep_first: leading events always kept (summary_offset)." },
    { name: "maxSize", default: OPENHANDS.maxSize, description: "max_size: condense when the view holds more events than this." },
  ],
  fires: (ctx, params) => ctx.cut > numParam(params, "maxSize"),
  async decide(ctx, params) {
    const keepFirst = Math.max(0, Math.floor(numParam(params, "keepFirst")));
    const target = Math.floor(numParam(params, "maxSize") / 2);
    if (ctx.targetTokens === undefined) return condense(ctx, keepFirst, Math.max(0, target - keepFirst - 1), `${ctx.cut} events; target ${target}`);
    const safe = safeBoundaries(ctx.session.messages, ctx.cut);
    const head = headOf(ctx, keepFirst);
    const kept = (tail: number) => keptBySplit(ctx, tailStartFor(ctx, safe, keepFirst, tail), head);
    const fitFor = (reserve: number) => fitSummaryTarget(ctx, 0, Math.max(0, ctx.cut - keepFirst), kept, undefined, reserve);
    const note = `${ctx.cut} events; harness target ${ctx.targetTokens} tokens`;
    const { decision, fit } = await summarizeWithinTarget(ctx, fitFor, (f) => condense(ctx, keepFirst, f.x, note, f));
    return reportSummaryTarget(
      ctx,
      decision,
      `newest ${fit.x} events kept`,
      keptTooLarge(`the first ${keepFirst} events, the system prompt and the protected latest turn`, fit),
    );
  },
};

/** The condensation keeping the first `keepFirst` and the newest `tailCount` events (and, under a harness target, the fitted summary cap). */
function condense(ctx: PolicyContext, keepFirst: number, tailCount: number, reading: string, fit?: SummaryFit): Promise<PolicyDecision> {
  const log = [`${reading}: keep the first ${keepFirst} and the newest ${tailCount}`];
  if (ctx.cut <= keepFirst + tailCount) return Promise.resolve(keepAsIs(log, "no events to forget: kept as is"));
  const wanted = ctx.cut - tailCount;
  const tailStart = tailStartFor(ctx, safeBoundaries(ctx.session.messages, ctx.cut), keepFirst, tailCount);
  if (tailStart < wanted) log.push(`tail start moved back from event ${wanted} to ${tailStart} so actions keep their observations`);
  return compactWithSummary(withSummaryCap(ctx, fit), {
    tailStart,
    summaryAt: keepFirst,
    keep: headOf(ctx, keepFirst),
    pretrim: [capItemLength(OPENHANDS_EVENT_CAP)],
    instructions: INSTRUCTIONS,
    rule: "openhands-summarizing/forgotten-events",
    reason: "forgotten by the condenser: between the kept head and the newest events",
    log,
  });
}

/** The first event kept after the forgotten middle: the newest `tailCount`, moved back to a safe boundary. */
function tailStartFor(ctx: PolicyContext, safe: boolean[], keepFirst: number, tailCount: number): number {
  return Math.max(keepFirst, snapBack(safe, ctx.cut - tailCount));
}

function headOf(ctx: PolicyContext, keepFirst: number): Set<number> {
  return new Set(Array.from({ length: Math.min(keepFirst, ctx.cut) }, (_, m) => m));
}
