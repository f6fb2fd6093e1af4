import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { layoutLabels, type LabelPoint, type PlacedLabel } from "../../../components/evaluations/label-layout";

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
      for (const p of cluster) assert.ok(!overlap(boxes[i]!, { left: p.x - 5, right: p.x + 5, top: p.y - 5, bottom: p.y + 5 }), `${cluster[i]!.id} covers ${p.id}`);
      assert.ok(boxes[i]!.left >= 0 && boxes[i]!.right <= 600 && boxes[i]!.top >= 0 && boxes[i]!.bottom <= 300);
    }
    assert.ok(placed.some((p) => p.leader), "a stacked label gets a leader line");
  });

  test("deterministic whatever the input order; results follow the input order", () => {
    const a = layoutLabels(cluster, { bounds });
    const b = layoutLabels([...cluster].reverse(), { bounds });
    assert.deepEqual(b.map((p) => p.id), [...cluster].reverse().map((p) => p.id));
    assert.deepEqual([...b].reverse(), a);
  });

  test("a point at the right edge puts its label on the left", () => {
    const [edge] = layoutLabels([{ id: "e", label: "oldest-turn", x: 595, y: 100 }], { bounds });
    assert.ok(edge!.x + "oldest-turn".length * 6.4 <= 595);
  });
});
