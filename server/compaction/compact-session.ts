import { PolicyParamError } from "@/lib/compaction/policies/params";
import { PlannerUnavailableError } from "@/lib/compaction/policies/self-gc/choose-planner";
import type { PolicyParams } from "@/lib/compaction/policies/types";
import type { LlmClient } from "@/lib/llm/types";
import type { Db } from "../db/client";
import { loadAnalyzedSession } from "../trace/session/load-analyzed-session";
import type { BlobStore } from "../storage/blob-store";
import type { CompactData, CompactErrorCode } from "./compaction-api";
import { listSafeCuts } from "./compaction-setup";
import { markPrefix } from "./mark-prefix";
import { projectView } from "./project-view";
import { runSessionPolicy } from "./run-session-policy";

export interface CompactSessionInput {
  sessionId: string;
  policy: string;
  cut?: number;
  window?: number;
  params?: PolicyParams;
  /** The model for policies that call one; defaults to the endpoint in effect (run-session-policy.ts). */
  llm?: LlmClient;
  /** Stops the policy's model calls (a job's graceful stop). */
  signal?: AbortSignal;
}

export type CompactSessionOutcome = { ok: true; data: CompactData } | { ok: false; code: CompactErrorCode; message: string };

/**
 * Runs a policy on a stored session for the studio (sidecars persisted by runSessionPolicy) and
 * shapes the result for the page: the slimmed projected view, the fate of every original part,
 * sidecar references without payloads, and the safe cuts the slider snaps to. Expected failures
 * (unknown policy or session, bad cut or parameter, LLM planner not configured) come back as codes.
 */
export async function compactSession(db: Db, store: BlobStore, input: CompactSessionInput): Promise<CompactSessionOutcome> {
  let outcome;
  try {
    outcome = await runSessionPolicy(db, store, {
      sessionId: input.sessionId,
      policyId: input.policy,
      ...(input.cut !== undefined ? { cut: input.cut } : {}),
      ...(input.window !== undefined ? { window: input.window } : {}),
      ...(input.params ? { params: input.params } : {}),
      ...(input.llm ? { llm: input.llm } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (error) {
    if (error instanceof PolicyParamError) return { ok: false, code: "invalid_params", message: error.message };
    if (error instanceof PlannerUnavailableError) return { ok: false, code: "planner_unavailable", message: error.message };
    if (error instanceof RangeError) return { ok: false, code: "invalid_request", message: error.message };
    throw error;
  }
  if (!outcome.ok) return { ok: false, code: outcome.code === "not_found" ? "not_found" : "invalid_request", message: outcome.message };

  const loaded = await loadAnalyzedSession(db, input.sessionId);
  if (!loaded) return { ok: false, code: "not_found", message: "no such session" };
  const { session, index, tokenizer } = loaded;
  const { result } = outcome;
  const { view, sidecars, ...rest } = result;
  return {
    ok: true,
    data: {
      result: {
        ...rest,
        view: projectView(view, sidecars, index, tokenizer),
        marks: markPrefix(result, session, index),
        sidecars: sidecars.map((s) => ({ target: s.target, sha256: s.sha256, bytes: s.bytes })),
      },
      choice: outcome.choice,
      messageCount: outcome.messageCount,
      safeCuts: listSafeCuts(session, index),
    },
  };
}
