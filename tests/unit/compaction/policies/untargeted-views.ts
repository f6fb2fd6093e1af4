import { runPolicy } from "../../../../lib/compaction/policies/run-policy";
import type { Policy } from "../../../../lib/compaction/policies/types";
import { cachedTokenizer } from "../../../../lib/tokens";
import { sha256Hex } from "../../../../lib/util/sha256";
import type { SamplePoint } from "../../../helpers/policy-sample";

/**
 * The sha256 of a policy's whole result (view, actions, sidecars, summary, log, details) at each
 * sample point, run without a target view size. Pinned in fixtures/untargeted-views.json from the
 * code before matched budgets reached every policy, so a target-aware policy that changes its
 * untargeted behaviour fails the test.
 */
export async function untargetedViewHashes(policy: Policy, points: readonly SamplePoint[]): Promise<Record<string, string>> {
  const tokenizer = cachedTokenizer("o200k");
  const out: Record<string, string> = {};
  for (const p of points) {
    const result = await runPolicy(policy, { session: p.session.session, index: p.session.index, cut: p.cut.cut, window: p.window, tokenizer });
    out[p.key] = sha256Hex(JSON.stringify(result));
  }
  return out;
}
