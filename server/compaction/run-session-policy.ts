import { findPolicy } from "@/lib/compaction/policies/registry";
import { runPolicy } from "@/lib/compaction/policies/run-policy";
import { selectCut, type CutChoice } from "@/lib/compaction/policies/select-cut";
import type { PolicyParams, PolicyResult } from "@/lib/compaction/policies/types";
import type { LlmClient } from "@/lib/llm/types";
import type { Db } from "../db/client";
import { getLlmClient } from "../llm/effective-config";
import { withSignal } from "../llm/with-signal";
import { loadAnalyzedSession } from "../trace/session/load-analyzed-session";
import type { BlobStore } from "../storage/blob-store";
import { persistSidecars } from "./persist-sidecars";

export interface RunSessionPolicyInput {
  sessionId: string;
  policyId: string;
  cut?: number;
  window?: number;
  params?: PolicyParams;
  /** The LLM for planner=llm / LLM summaries; defaults to the endpoint in effect (server/llm/effective-config.ts). */
  llm?: LlmClient;
  /** Stops the policy's model calls (a job's graceful stop); see server/llm/with-signal.ts. */
  signal?: AbortSignal;
}

export type RunSessionPolicyOutcome =
  { ok: true; result: PolicyResult; choice: CutChoice; messageCount: number } | { ok: false; code: "not_found" | "bad_request"; message: string };

/**
 * Runs a policy server-side on a stored session and persists its sidecars, so every folded object
 * shown in the studio can be restored byte for byte later.
 */
export async function runSessionPolicy(db: Db, store: BlobStore, input: RunSessionPolicyInput): Promise<RunSessionPolicyOutcome> {
  const policy = findPolicy(input.policyId);
  if (!policy) return { ok: false, code: "bad_request", message: `unknown policy ${input.policyId}` };
  const loaded = await loadAnalyzedSession(db, input.sessionId);
  if (!loaded) return { ok: false, code: "not_found", message: "no such session" };
  const { session, index, tokenizer } = loaded;
  if (input.cut !== undefined && (input.cut < 1 || input.cut > session.messages.length)) {
    return { ok: false, code: "bad_request", message: `cut must be between 1 and ${session.messages.length}` };
  }
  const choice = selectCut(policy, session, index, tokenizer, {
    ...(input.cut !== undefined ? { cut: input.cut } : {}),
    ...(input.window !== undefined ? { window: input.window } : {}),
    ...(input.params ? { params: input.params } : {}),
  });
  const client = input.llm ?? (await getLlmClient(db));
  const llm = client && input.signal ? withSignal(client, input.signal) : client;
  const result = await runPolicy(policy, {
    session,
    index,
    cut: choice.cut,
    window: choice.window,
    tokenizer,
    ...(input.params ? { params: input.params } : {}),
    ...(llm ? { llm } : {}),
  });
  await persistSidecars(db, store, input.sessionId, result.sidecars);
  return { ok: true, result, choice, messageCount: session.messages.length };
}
