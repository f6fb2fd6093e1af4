import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { crosses, layoutLabels, type LabelPoint, type PlacedLabel } from "../../../components/evaluation/label-layout";

const bounds = { left: 0, top: 0, right: 600, bottom: 300 };
const box = (l: PlacedLabel, text: string) => ({ left: l.x, right: l.x + text.length * 6.4, top: l.y - 7, bottom: l.y + 7 });
const overlap = (a: ReturnType<typeof box>, b: ReturnType<typeof box>) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** tool-prune, tool-mask-prune, hybrid and two more as they cluster on the real traces (a few px apart). */
const cluster: LabelPoint[] = [
  { id: "tool-prune", label: "tool-prune", x: 400, y: 150 },
  { id: "tool-mask-prune", label: "tool-mask-prune", x: 404, y: 153 },
  { id: "hybrid", label: "hybrid", x: 398, y: 147 },
  { id: "tool-mask", label: "tool-mask", x: 402, y: 151 },
  { id: "recent-turns", label: "recent-turns", x: 396, y: 152 },
  { id: "none", label: "none", x: 10, y: 20 },
];

describe("layoutLabels", () => {
  test("a lone point keeps its label to the right, without a leader line", () => {
    const [only] = layoutLabels([{ id: "a", label: "a", x: 100, y: 100 }], { bounds });
    assert.equal(only!.leader, false);
    assert.ok(only!.x > 100 && Math.abs(only!.y - 100) < 1e-9);
  });

  test("clustered labels do not overlap each other or any point, and stay in the plot", () => {
    const placed = layoutLabels(cluster, { bounds });
    const boxes = placed.map((p, i) => box(p, cluster[i]!.label));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) assert.ok(!overlap(boxes[i]!, boxes[j]!), `${cluster[i]!.id} overlaps ${cluster[j]!.id}`);
      for (const p of cluster)
        assert.ok(!overlap(boxes[i]!, { left: p.x - 5, right: p.x + 5, top: p.y - 5, bottom: p.y + 5 }), `${cluster[i]!.id} covers ${p.id}`);
      assert.ok(boxes[i]!.left >= 0 && boxes[i]!.right <= 600 && boxes[i]!.top >= 0 && boxes[i]!.bottom <= 300);
    }
    assert.ok(
      placed.some((p) => p.leader),
      "a stacked label gets a leader line",
    );
  });

  test("deterministic whatever the input order; results follow the input order", () => {
    const a = layoutLabels(cluster, { bounds });
    const b = layoutLabels([...cluster].reverse(), { bounds });
    assert.deepEqual(
      b.map((p) => p.id),
      [...cluster].reverse().map((p) => p.id),
    );
    assert.deepEqual([...b].reverse(), a);
  });

  test("a point at the right edge puts its label on the left", () => {
    const [edge] = layoutLabels([{ id: "e", label: "oldest-turn", x: 595, y: 100 }], { bounds });
    assert.ok(edge!.x + "oldest-turn".length * 6.4 <= 595);
  });
});

describe("layoutLabels with whiskers and curves (issue 17 item 9)", () => {
  const whisker = (x: number, top: number, bottom: number) => ({ left: x - 3, right: x + 3, top, bottom });

  test("a label never lands on another point's whisker or across a curve segment", () => {
    // A point whose right slot is crossed by a neighbour's whisker, and whose left slot by a curve.
    const points: LabelPoint[] = [{ id: "a", label: "oldest-turn", x: 300, y: 150 }];
    const obstacles = [whisker(330, 100, 200)];
    const segments = [{ x1: 200, y1: 140, x2: 290, y2: 160 }];
    const [placed] = layoutLabels(points, { bounds, obstacles, segments });
    const b = box(placed!, "oldest-turn");
    assert.ok(!overlap(b, obstacles[0]!), JSON.stringify(b));
    assert.equal(crosses(segments[0]!, b), false);
    assert.equal(placed!.hidden, false);
  });

  test("with hideUnplaced, a label with no free slot is hidden rather than overlapping", () => {
    const points: LabelPoint[] = [{ id: "a", label: "a-very-long-policy-name", x: 300, y: 150 }];
    const everywhere = [{ left: 0, right: 600, top: 0, bottom: 300 }];
    assert.equal(layoutLabels(points, { bounds, obstacles: everywhere, hideUnplaced: true })[0]!.hidden, true);
    assert.equal(layoutLabels(points, { bounds, obstacles: everywhere })[0]!.hidden, false, "without it the label keeps its first slot");
  });

  test("crosses: a segment through, beside and ending inside a box", () => {
    const b = { left: 10, right: 20, top: 10, bottom: 20 };
    assert.equal(crosses({ x1: 0, y1: 15, x2: 30, y2: 15 }, b), true);
    assert.equal(crosses({ x1: 0, y1: 0, x2: 30, y2: 5 }, b), false);
    assert.equal(crosses({ x1: 0, y1: 0, x2: 15, y2: 15 }, b), true);
    assert.equal(crosses({ x1: 25, y1: 0, x2: 25, y2: 30 }, b), false);
  });
});
