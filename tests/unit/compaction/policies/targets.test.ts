import assert from "node:assert/strict";
import { test } from "node:test";
import { SUMMARY_POLICIES } from "../../../../lib/compaction/policies/families/summary";
import { POLICIES } from "../../../../lib/compaction/policies/registry";
import { runPolicy } from "../../../../lib/compaction/policies/run-policy";
import type { TargetReport } from "../../../../lib/compaction/policies/shared/target";
import { protectedSet } from "../../../../lib/compaction/projection/protect";
import { cachedTokenizer } from "../../../../lib/tokens";
import { policySample, type SamplePoint } from "../../../helpers/policy-sample";
import { checkInvariants } from "./check-invariants";

/**
 * Matched budgets reach every policy (issue 16): given the harness's target view size, each policy
 * compacts to it in its own order, or says why it cannot and is then at its closest. On real traces
 * (two sessions of every file of ../shared/traces, at the replay protocol's cuts) with sweep targets
 * removing 30% and 50% of the prefix:
 * - every result holds the harness invariants;
 * - every policy reports on the target (`details.target`); a view over the target by more than the
 *   tolerance is reported unreached with a reason, and a view reported reached is within it;
 * - a policy over the target is at its closest: asked for a 1-token view it gets no smaller;
 * - unreached is rare where the policy has room: at most 20% of units (summary families and the
 *   discard-all reset: 5%) whose target lies clearly above the policy's floor.
 * The floors, counted here from the session, not taken from any policy: the harness floor is what
 * no policy may remove (the protected latest turn and the system prompt); the tool floor is what is
 * left once every tool result outside the latest turn is gone.
 */
const tokenizer = cachedTokenizer("o200k");
const SWEEPS = [30, 50];
/**
 * Slack on a target a policy reports reached: policies estimate before the harness materialises the
 * view (reminder merging and lineage repair only shrink it); 0.5% of the target, 0 needed on this
 * sample when written.
 */
const tolerance = (target: number) => Math.ceil(0.005 * target);
/**
 * Policies that may remove any kind of content, so unreached only where the harness floor explains
 * it. Not gemini-cli: its split needs a user message after the kept share, so a single-request run
 * (most agent traces here) has no split point at all and only its tool-output budget can act.
 */
const ANY_CONTENT = new Set([...SUMMARY_POLICIES.map((p) => p.id).filter((id) => id !== "gemini-cli"), "discard-all"]);

interface Floors {
  harness: number;
  tool: number;
}

function floorsOf(p: SamplePoint): Floors {
  const { session, index } = p.session;
  const protect = protectedSet(session.messages, index, p.cut.cut);
  let harness = 0;
  for (let m = 0; m < p.cut.cut; m++) if (protect.messages.has(m) || session.messages[m]!.role === "system") harness += index.messageTokens[m]!;
  let tools = 0;
  for (const o of index.objects) if (o.kind === "function" && o.firstMessage < p.cut.cut && !protect.messages.has(o.firstMessage)) tools += o.tokens;
  return { harness, tool: p.cut.prefixTokens - tools };
}

test("with a sweep target every policy fits it, or says why not and is at its closest; unreached is rare where there is room", async () => {
  const points = await policySample(2);
  const floors = points.map(floorsOf);
  for (const policy of POLICIES) {
    let units = 0;
    let unreachedWithRoom = 0;
    let unreachedAboveHarnessFloor = 0;
    for (const pct of SWEEPS) {
      for (const [i, p] of points.entries()) {
        const target = Math.round(p.cut.prefixTokens * (1 - pct / 100));
        const where = `${policy.id} at ${pct}% on ${p.key}`;
        const input = { session: p.session.session, index: p.session.index, cut: p.cut.cut, window: p.window, tokenizer };
        const result = await runPolicy(policy, { ...input, targetTokens: target });
        checkInvariants(p.session, result, where);
        units++;
        const report = result.details?.target as TargetReport | undefined;
        assert.ok(report, `${where}: no target report`);
        assert.equal(report.tokens, target, `${where}: report names another target`);
        if (report.reached)
          assert.ok(result.tokensAfter <= target + tolerance(target), `${where}: reported reached, but the view is ${result.tokensAfter} > ${target}`);
        if (result.tokensAfter <= target + tolerance(target)) continue;
        assert.equal(report.reached, false, `${where}: over the target without saying so`);
        assert.ok(typeof report.why === "string" && report.why.length > 20, `${where}: unreached without a reason`);
        if (policy.id === "none") {
          assert.equal(result.tokensAfter, result.tokensBefore, `${where}: the control changed the prefix`);
          continue;
        }
        const closest = await runPolicy(policy, { ...input, targetTokens: 1 });
        assert.ok(
          closest.tokensAfter >= result.tokensAfter - tolerance(target),
          `${where}: unreached at ${result.tokensAfter} tokens, yet a 1-token target gets ${closest.tokensAfter}`,
        );
        if (target >= floors[i]!.tool / 0.9) unreachedWithRoom++;
        if (target >= floors[i]!.harness * 1.1 + 100) unreachedAboveHarnessFloor++;
      }
    }
    if (policy.id === "none") continue;
    assert.ok(
      unreachedWithRoom <= 0.2 * units,
      `${policy.id}: unreached in ${unreachedWithRoom} of ${units} units where the target is well above the tool floor`,
    );
    if (ANY_CONTENT.has(policy.id)) {
      assert.ok(
        unreachedAboveHarnessFloor <= 0.05 * units,
        `${policy.id}: unreached in ${unreachedAboveHarnessFloor} of ${units} units whose target is well above the harness floor`,
      );
    }
  }
});

test("a target the prefix already meets leaves every policy's view unchanged (the harness answers)", async () => {
  const [p] = await policySample(1);
  for (const policy of POLICIES) {
    const result = await runPolicy(policy, {
      session: p!.session.session,
      index: p!.session.index,
      cut: p!.cut.cut,
      window: p!.window,
      tokenizer,
      targetTokens: p!.cut.prefixTokens,
    });
    assert.equal(result.tokensAfter, result.tokensBefore, policy.id);
    assert.deepEqual(result.actions, [], policy.id);
  }
});
