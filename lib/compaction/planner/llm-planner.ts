import { clientIdFor, type LlmClient, type LlmMessage, type LlmResponse } from "../../llm/types";
import { buildPlannerMessages } from "./contract";
import { parsePlan } from "./parse-plan";
import type { RenderOptions } from "./render-prefix";
import type { Planner, PlannerOutput } from "./types";

/**
 * The side-channel LLM planner (seed 000): the contract prompt plus the rendered prefix go to the
 * configured model (purpose "planner"). An answer the strict parser refuses is shown back to the
 * model once with every located error (`repairAttempts`, default 1); the last answer is returned
 * untouched either way, because parsing, rehearsal and commit belong to the harness. Usage is the
 * sum over the attempts (all of them cost L_GC). The clock is a parameter so lib/ stays deterministic.
 */
export interface LlmPlannerOptions extends RenderOptions {
  maxTokens?: number;
  /** Milliseconds clock for latency; omitted → no latency reported. */
  now?: () => number;
  /** Follow-up turns quoting the parse errors (default 1; 0: the first answer stands). */
  repairAttempts?: number;
}

export function createLlmPlanner(client: LlmClient, options: LlmPlannerOptions = {}): Planner {
  const id = `llm:${clientIdFor(client, "planner")}`;
  return {
    id,
    async plan(input): Promise<PlannerOutput> {
      const started = options.now?.();
      const conversation = buildPlannerMessages(input, options);
      const repairs = Math.max(0, Math.floor(options.repairAttempts ?? 1));
      const responses: LlmResponse[] = [];
      for (let i = 0; ; i++) {
        const response = await client.complete({ messages: conversation, maxTokens: options.maxTokens ?? 2_000, temperature: 0, purpose: "planner" });
        responses.push(response);
        const errors = parsePlan(response.text).errors.filter((e) => e.severity === "error");
        if (errors.length === 0 || i >= repairs) break;
        conversation.push({ role: "assistant", content: response.text }, planRepairMessage(errors.map((e) => `${e.line}:${e.column} ${e.message}`)));
      }
      const last = responses.at(-1)!;
      const usage = sumUsage(responses);
      return {
        xml: last.text,
        planner: id,
        model: last.model,
        ...(started !== undefined && options.now ? { latencyMs: options.now() - started } : {}),
        ...(Object.keys(usage).length ? { usage } : {}),
        ...(responses.length > 1 ? { attempts: responses.length } : {}),
      };
    },
  };
}

/** The follow-up turn quoting what the parser refused (line:column of the previous answer). */
export function planRepairMessage(problems: readonly string[]): LlmMessage {
  return {
    role: "user",
    content: `Your plan was rejected by the parser:\n${problems.map((p) => `- ${p}`).join("\n")}\nAnswer again with exactly <above_conversation_summary>…</above_conversation_summary> then <gc_plan>…</gc_plan>, nothing else.`,
  };
}

type Usage = NonNullable<PlannerOutput["usage"]>;

/** Sums each reported counter over the attempts; a counter no attempt reported stays absent. */
function sumUsage(responses: readonly LlmResponse[]): Usage {
  const usage: Usage = {};
  for (const key of ["inputTokens", "outputTokens", "cachedInputTokens", "costUsd"] as const) {
    const values = responses.map((r) => r[key]).filter((v): v is number => v !== undefined);
    if (values.length) usage[key] = values.reduce((a, b) => a + b, 0);
  }
  return usage;
}
