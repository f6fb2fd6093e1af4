import { PolicyParamError, resolveParams } from "./params";
import { findPolicy } from "./registry";
import type { PolicyParams } from "./types";

/**
 * Whether running `policyId` with these parameter overrides calls the LLM (self-gc with
 * planner=llm today). The studio decides from this alone how to run a compaction: a model call can
 * take a minute, and inside a request it dies with the studio process, a proxy timeout or a closed
 * tab, so such a run becomes a durable job a worker executes while the page polls; every other run
 * is answered in the request, synchronously, as before. Each policy says it itself
 * (`Policy.callsModel`), so a new model-calling policy only has to declare it here once.
 *
 * An unknown policy or parameters that do not resolve give false: the synchronous path then
 * refuses them at once with its usual located message, instead of queueing a job doomed to fail.
 */
export function policyNeedsLlm(policyId: string, overrides: PolicyParams = {}): boolean {
  const policy = findPolicy(policyId);
  if (!policy?.callsModel) return false;
  try {
    return policy.callsModel(resolveParams(policy, overrides));
  } catch (error) {
    if (error instanceof PolicyParamError) return false;
    throw error;
  }
}
