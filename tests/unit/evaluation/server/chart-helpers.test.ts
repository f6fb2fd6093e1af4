import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { niceStep, zoomAxis } from "../../../../components/evaluation/chart-domain";
import { policyStyle, POLICY_COLORS, POLICY_SHAPES } from "../../../../components/evaluation/policy-style";
import { extents, hasNetPrune, tradeoffSeries } from "../../../../components/evaluation/tradeoff-series";
import type { CurvePoint } from "../../../../lib/evaluation/aggregate/curves";

describe("zoomAxis (issue 17 item 9: axes zoom to the data)", () => {
  test("points all under 40% do not get a 0–100 axis; the data sit inside with padding", () => {
    const axis = zoomAxis([12.5, 22.1, 38.4]);
    assert.ok(axis.domain[1] <= 50, JSON.stringify(axis));
    assert.ok(axis.domain[0] < 12.5 && axis.domain[1] > 38.4, "padding on both sides");
    assert.deepEqual(axis.ticks, [10, 15, 20, 25, 30, 35, 40, 45]);
  });

  test("ticks are evenly spaced at a nice step, at most maxTicks; the domain ends on a tick unless a value sits on that edge", () => {
    for (const values of [[10, 38], [43.8], [0, 100], [95, 100], [22.1, 22.3, 71.5], [0.4, 3.2]]) {
      const { domain, ticks } = zoomAxis(values);
      assert.ok(ticks.length >= 2 && ticks.length <= 8, `${values}: ${ticks}`);
      const step = ticks[1]! - ticks[0]!;
      assert.equal(niceStep(step), step, `${values}: step ${step} is nice`);
      const onEdge = (tick: number) => values.some((v) => v === tick);
      assert.equal(domain[0], onEdge(ticks[0]!) ? ticks[0]! - step / 4 : ticks[0], `${values}: low end`);
      assert.equal(domain[1], onEdge(ticks.at(-1)!) ? ticks.at(-1)! + step / 4 : ticks.at(-1), `${values}: high end`);
      for (const v of values) assert.ok(v >= ticks[0]! && v <= ticks.at(-1)!, `${v} within the ticks ${ticks}`);
    }
  });

  test("percentages are ticked within 0–100, a value at 0% or 100% is not drawn on the edge, a single point gets a minimum span", () => {
    assert.deepEqual(zoomAxis([100]), { domain: [90, 100.5], ticks: [90, 92, 94, 96, 98, 100] });
    assert.deepEqual(zoomAxis([0]).ticks.at(0), 0);
    assert.ok(zoomAxis([0]).domain[0] < 0);
    assert.deepEqual(zoomAxis([0, 100]), { domain: [-5, 105], ticks: [0, 20, 40, 60, 80, 100] });
    const one = zoomAxis([43.8]);
    assert.ok(one.domain[1] - one.domain[0] >= 10);
    assert.deepEqual(zoomAxis([]).domain, [0, 100]);
  });

  test("niceStep picks 1, 2, 2.5 or 5 times a power of ten", () => {
    assert.deepEqual([0.3, 1, 1.1, 2.2, 4, 7, 13, 30].map(niceStep), [0.5, 1, 2, 2.5, 5, 10, 20, 50]);
  });
});

describe("policyStyle", () => {
  test("no two of the first 70 policies share a colour and shape", () => {
    const pairs = new Set(Array.from({ length: POLICY_COLORS.length * POLICY_SHAPES.length }, (_, i) => JSON.stringify(policyStyle(i))));
    assert.equal(pairs.size, POLICY_COLORS.length * POLICY_SHAPES.length);
  });
});

describe("tradeoffSeries", () => {
  const own = [
    { id: "none", prunePct: 0, netPrunePct: 0, noImpactPct: 100, ci95: [90, 100] as [number, number], n: 30 },
    { id: "self-gc", prunePct: 31.2, netPrunePct: 28.7, noImpactPct: 80, ci95: [62.7, 90.5] as [number, number], n: 30 },
    { id: "llm-only", prunePct: 10, netPrunePct: null, noImpactPct: 50, ci95: [30, 70] as [number, number], n: 10 },
    { id: "empty", prunePct: 0, netPrunePct: null, noImpactPct: 0, ci95: [0, 0] as [number, number], n: 0 },
  ];
  const point = (policy: string, budgetPct: number, prunePct: number, noImpactPct: number): CurvePoint => ({
    policy,
    budgetPct,
    prunePct,
    netPrunePct: prunePct - 2,
    noImpactPct,
    visibleNoImpactPct: noImpactPct - 5,
    restorableNoImpactPct: noImpactPct,
    n: 30,
    ci95: [noImpactPct - 10, noImpactPct + 5],
  });
  const curves = [point("self-gc", 60, 58, 40), point("self-gc", 20, 19, 90), point("self-gc", 40, 39, 70)];

  test("one series per policy with its own point and its curve in budget order, labelled by budget", () => {
    const series = tradeoffSeries(own, curves, "prune");
    assert.deepEqual(
      series.map((s) => s.policy),
      ["none", "self-gc", "llm-only"],
      "a policy with no judged cut is left out",
    );
    const selfGc = series[1]!;
    assert.deepEqual(
      selfGc.curve.map((p) => [p.budgetPct, p.x, p.label]),
      [
        [20, 19, "20%"],
        [40, 39, "40%"],
        [60, 58, "60%"],
      ],
    );
    assert.deepEqual(selfGc.own, { policy: "self-gc", x: 31.2, y: 80, ci95: [62.7, 90.5], whisker: [80 - 62.7, 90.5 - 80], n: 30, label: "self-gc" });
  });

  test("the net-prune axis uses net figures and leaves out points without one", () => {
    const series = tradeoffSeries(own, curves, "net");
    assert.deepEqual(
      series.map((s) => s.policy),
      ["none", "self-gc"],
    );
    assert.equal(series[1]!.own!.x, 28.7);
    assert.deepEqual(
      series[1]!.curve.map((p) => p.x),
      [17, 37, 56],
    );
    assert.equal(hasNetPrune(own, curves), true);
    assert.equal(hasNetPrune([own[2]!], []), false);
  });

  test("extents cover every point and whisker end", () => {
    const { xs, ys } = extents(tradeoffSeries(own, curves, "prune"));
    assert.deepEqual([Math.min(...xs), Math.max(...xs)], [0, 58]);
    assert.deepEqual([Math.min(...ys), Math.max(...ys)], [30, 100]);
  });
});
