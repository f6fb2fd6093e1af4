import { promptOf, type RecordedRequest } from "./llm-stub-server";

/**
 * Answers for the LLM stub (llm-stub-server.ts) that the eval tests share: a judge verdict that
 * fails a cut exactly when the plan shows edits (the control makes none), and a Self-GC plan.
 */
export function stubJudgeVerdict(request: RecordedRequest, summary: { unchanged: string; edited: string }): string {
  const packet = (request.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === "user")?.content ?? "";
  const unchanged = packet.includes("- no edits: the prefix is unchanged");
  const score = (n: number) => ({ score: n, verdict: n >= 4 ? "pass" : "fail" });
  return JSON.stringify({
    valid: unchanged,
    uncertain: false,
    overall_score: unchanged ? 5 : 2,
    summary: unchanged ? summary.unchanged : summary.edited,
    dimension_scores: {
      goal_retention: score(5),
      evidence_retention: score(unchanged ? 5 : 1),
      continuation_readiness: score(unchanged ? 5 : 2),
      compression_safety: score(unchanged ? 5 : 2),
    },
    failure_culprit: null,
  });
}

/** Planner prompts (the Self-GC contract); every other call is a judge call. */
export const isPlannerCall = (request: RecordedRequest) => promptOf(request).system.includes("DECIDE IN THIS ORDER");

/** A Self-GC plan folding every turn the planner prompt shows unprotected, whole user turns included: large enough to commit. */
export function stubPlanFoldingAll(request: RecordedRequest): string {
  const turns = [...(promptOf(request).messages.at(-1)?.content ?? "").matchAll(/<turn id="(conversation|function):([^"]+)"[^>]*?( protected="true")? \/>/g)];
  const folds = turns.filter((m) => !m[3]).map((m) => `<fold kind="${m[1]}" reason="stable_artifact">${m[2]}</fold>`);
  return `<above_conversation_summary>Stub planner.</above_conversation_summary>\n<gc_plan>${folds.join("")}</gc_plan>`;
}

/** A Self-GC plan folding the first function turn the planner prompt shows (none when it shows none). */
export function stubPlan(request: RecordedRequest): string {
  const id = /<turn id="function:([a-z_]+:\d+)"/.exec(promptOf(request).messages.at(-1)?.content ?? "")?.[1];
  return `<above_conversation_summary>Stub planner.</above_conversation_summary>\n<gc_plan>${id ? `<fold kind="function" reason="stable_artifact">${id}</fold>` : ""}</gc_plan>`;
}
