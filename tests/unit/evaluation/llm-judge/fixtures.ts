import { runPolicy } from "../../../../lib/compaction/policies/run-policy";
import { findPolicy } from "../../../../lib/compaction/policies/registry";
import type { PolicyResult } from "../../../../lib/compaction/policies/types";
import { body, fixture, log, type Step } from "../../compaction/planner/fixtures";

/**
 * A small research-then-build session cut after the build turn. The future reads the report path
 * from turn 1 and quotes a price from the fetched page, so a policy that drops the page loses a
 * dependency.
 */
export const STEPS: Step[] = [
  ["system", "You are an agent."],
  ["user", "Research the vendors and keep the report at /tmp/report.md."],
  ["call", "WebFetch", { url: "https://a.example.com/pricing" }, `${body("page a", 60)}\nPlan Pro costs 12.50 per seat.`],
  ["call", "Bash", { command: "make test" }, log(80)],
  ["assistant", "Done."],
  ["user", "Check the build."],
  ["call", "Bash", { command: "make" }, log(60)],
  ["assistant", "Build ok."],
  ["user", "Now compare prices."],
  ["assistant", "Comparing."],
  ["call", "Read", { file_path: "/tmp/report.md" }, "report body"],
  ["assistant", "Plan Pro costs 12.50 per seat."],
  ["user", "thanks, send it"],
  ["assistant", "Sent."],
  ["user", "one more thing"],
  ["assistant", "Sure."],
];

/** Prefix: messages 0..9 (through the build turn's assistant reply). */
export const CUT = 10;

export async function resultFor(
  policyId: string,
  steps: Step[] = STEPS,
  cut = CUT,
  window = 1_000,
): Promise<{ result: PolicyResult } & ReturnType<typeof fixture>> {
  const f = fixture(steps, cut);
  const policy = findPolicy(policyId);
  if (!policy) throw new Error(`no policy ${policyId}`);
  const result = await runPolicy(policy, { session: f.session, index: f.index, cut, window, tokenizer: f.ctx.tokenizer });
  return { ...f, result };
}

/** A well-formed Listing 3 answer, with overrides. */
export function verdictJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    valid: false,
    uncertain: false,
    overall_score: 2.5,
    summary: "The fetched price page was pruned and the future quotes its price.",
    dimension_scores: {
      goal_retention: { score: 5, verdict: "pass" },
      evidence_retention: { score: 1, verdict: "fail" },
      continuation_readiness: { score: 2, verdict: "fail" },
      compression_safety: { score: 2, verdict: "fail" },
    },
    failure_culprit: { target_id: "function:web_fetch:1" },
    ...over,
  };
}

export function abJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    verdict: "A_better",
    summary: "A keeps the price page.",
    rationale: "The future quotes 12.50 from function:web_fetch:1; A keeps it visible, B pruned it.",
    stronger_aspects: ["keeps the pricing evidence"],
    risks: ["build logs are masked in both"],
    confidence: 0.8,
    ...over,
  };
}
