import assert from "node:assert/strict";
import { test } from "node:test";
import { commitBenefit, DEFAULT_CACHE_PRICES, type CommitBenefitInput } from "../../../../../lib/compaction/policies/self-gc/commit-benefit";

const base: CommitBenefitInput = {
  tokensBefore: 100_000,
  tokensAfter: 60_000,
  changedTokensAfter: 60_000,
  nFuture: 20,
  cacheHitRate: 0.9,
  prices: DEFAULT_CACHE_PRICES,
  gcCost: 0,
  minPruneRate: 0.3,
};
const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

test("C and C′ blend cache-read and input prices by the hit rate; savings scale with N_future", () => {
  const b = commitBenefit(base);
  // per token: 0.9 × $0.30 + 0.1 × $3 = $0.57 per million
  close(b.costBefore, 0.057);
  close(b.costAfter, 0.0342);
  close(b.futureSavings, 20 * (0.057 - 0.0342));
  close(b.pruneRate, 0.4);
});

test("the cache break charges the changed suffix at write price instead of read price", () => {
  const b = commitBenefit(base);
  close(b.cacheBreakLoss, (60_000 * (3.75 - 0.3)) / 1e6);
  close(b.benefit, 0.456 - 0.207);
  assert.equal(b.commitNow, true);
  assert.match(b.reason, /^commit now: benefit \$0\.2490 = 20 × \(\$0\.0570 − \$0\.0342\) − cache break \$0\.2070 − GC \$0\.0000$/);
});

test("a plan pruning less than the 0.3 rule stays pending even with a positive benefit", () => {
  const b = commitBenefit({ ...base, tokensAfter: 80_000, changedTokensAfter: 10_000 });
  assert.ok(b.benefit > 0);
  assert.equal(b.commitNow, false);
  assert.match(b.reason, /^pending: pruning 20\.0% is below the 30% commit rule/);
});

test("a negative benefit keeps the plan pending until cache expiry, even above the 0.3 rule", () => {
  const b = commitBenefit({ ...base, nFuture: 1 });
  close(b.benefit, 0.0228 - 0.207);
  assert.equal(b.commitNow, false);
  assert.match(b.reason, /^pending until cache expiry or the next task boundary/);
});

test("L_GC (the planner call) is subtracted; no cache means no cache-read discount", () => {
  close(commitBenefit({ ...base, gcCost: 0.05 }).benefit, 0.249 - 0.05);
  const uncached = commitBenefit({ ...base, cacheHitRate: 0 });
  close(uncached.costBefore, 0.3);
  close(uncached.futureSavings, 20 * 0.12);
});

test("edge cases: nothing changed costs nothing; an empty prefix prunes nothing", () => {
  const same = commitBenefit({ ...base, tokensAfter: 100_000, changedTokensAfter: 0 });
  assert.equal(same.benefit, 0);
  assert.equal(same.commitNow, false);
  assert.equal(commitBenefit({ ...base, tokensBefore: 0, tokensAfter: 0, changedTokensAfter: 0 }).pruneRate, 0);
});
