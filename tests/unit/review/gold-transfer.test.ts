import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, test } from "node:test";
import { exportGold, planGoldImport } from "../../../lib/evaluation/calibration/gold-transfer";
import { itemIdForLabel, referenceVerdicts, viewVerdictRatings, type ViewVerdictLabel } from "../../../lib/review";
import { EMPTY_VIEW_VERDICT, viewVerdictDraft } from "../../../lib/review/view-verdict-draft";

/** Three units of the repo's gold set (one no_impact, one impact, one restorable), one cut of a real Claude Code session. */
const FIXTURE = readFileSync(resolve(__dirname, "../../fixtures/gold-small.jsonl"), "utf8");
const LINES = FIXTURE.trim().split("\n");
const parsed = () => LINES.map((l) => JSON.parse(l) as { unit: Record<string, unknown> & { id: string }; label: ViewVerdictLabel & Record<string, unknown> });
const join = (lines: unknown[]) => `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`;

describe("gold files as calibration queues (lib/evaluation/calibration/gold-transfer.ts)", () => {
  test("each unit is one view-verdict item, named as its label names it; the labels follow", () => {
    const result = planGoldImport(FIXTURE);
    assert.ok(result.ok);
    assert.deepEqual(
      result.plan.items.map((i) => i.item.unitId),
      ["g-a322f0f939", "g-90ce08eef0", "g-9694f59744"],
    );
    const { items, labels } = result.plan;
    items.forEach(({ item }, i) => {
      const placed = labels[i]!;
      assert.equal(item.id, itemIdForLabel(placed.label));
      assert.equal(placed.itemKey, item.id);
      assert.equal(placed.line, i + 1);
    });
    const restorable = result.plan.items[2]!.item;
    assert.deepEqual(restorable.sidecars, [(parsed()[2]!.unit.sidecars as { digest: string }[])[0]!.digest]);
    assert.equal(restorable.budget, "match-self-gc");
    assert.equal(result.plan.items[1]!.item.budget, undefined, "a unit at the policy's own settings has no budget");
  });

  test("export writes the imported file back byte for byte", () => {
    const result = planGoldImport(FIXTURE);
    assert.ok(result.ok);
    assert.equal(
      exportGold(
        result.plan.items.map((i) => ({ unitJson: i.unitJson, labels: result.plan.labels.filter((l) => l.itemKey === i.item.id).map((l) => l.label) })),
      ),
      FIXTURE,
    );
  });

  test("a unit may carry several labels (one per line); a second reviewer's version threads stay apart", () => {
    const [first] = parsed();
    const second = {
      ...first!,
      label: { ...first!.label, labelId: "person-1", reviewer: "ann@example.test", verdict: "impact", lost: [{ value: "x", category: "evidence_detail" }] },
    };
    const revised = { ...second, label: { ...second.label, version: 2, supersedes: 1, verdict: "no_impact", lost: undefined } };
    const result = planGoldImport(join([LINES[0], second, revised]));
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
    assert.equal(result.plan.items.length, 1);
    assert.deepEqual(
      result.plan.labels.map((l) => [l.label.labelId, l.label.version, l.line]),
      [
        ["gold-g-a322f0f939", 1, 1],
        ["person-1", 1, 2],
        ["person-1", 2, 3],
      ],
    );
  });

  test("every problem of the file is located, and any problem refuses the whole file", () => {
    const [a, b, c] = parsed();
    const otherBudget = { ...b!, label: { ...b!.label, budget: "budget-40" } };
    const renamed = { unit: { ...a!.unit, id: "g-other" }, label: { ...a!.label, labelId: "gold-other" } };
    const rewritten = { unit: { ...c!.unit, tokensAfter: 1 }, label: { ...c!.label, labelId: "gold-again" } };
    const gap = { ...c!, label: { ...c!.label, labelId: "gold-gap", version: 3, supersedes: 2 } };
    const result = planGoldImport(join([a, otherBudget, c, renamed, rewritten, gap, LINES[0], "[]"]));
    assert.ok(!result.ok);
    assert.deepEqual(
      result.errors.map((e) => [e.line, e.field, e.expected]),
      [
        [2, "label.budget", "no budget (the unit has none)"],
        [4, "unit.id", "one id per view"],
        [5, "unit", "the same unit as line 3 (id g-9694f59744)"],
        [6, "label.supersedes", "the superseded version earlier in the file"],
        [7, "label.version", "a version of gold-g-a322f0f939 not already in the file"],
        [8, "(record)", "object"],
      ],
    );
  });

  test("a view digest that is not the view's, and a label about another view, are refused", () => {
    const [a] = parsed();
    const tampered = { ...a!, unit: { ...a!.unit, viewDigest: "0".repeat(64) } };
    const moved = { ...a!, label: { ...a!.label, ref: { sessionId: a!.label.ref.sessionId, cut: 86 } } };
    const result = planGoldImport(join([tampered, moved]));
    assert.ok(!result.ok);
    assert.deepEqual(
      result.errors.map((e) => [e.line, e.field]),
      [
        [1, "unit.viewDigest"],
        [2, "label.ref.cut"],
      ],
    );
  });

  test("an empty file is refused", () => {
    const result = planGoldImport("\n\n");
    assert.ok(!result.ok);
    assert.equal(result.errors[0]!.message, "the file holds no gold unit");
  });
});

describe("the verdict people gave a view (referenceVerdicts)", () => {
  const base: ViewVerdictLabel = parsed()[0]!.label;
  const label = (labelId: string, reviewer: string, verdict: ViewVerdictLabel["verdict"], extra: Partial<ViewVerdictLabel> = {}): ViewVerdictLabel => ({
    ...(base as ViewVerdictLabel),
    labelId,
    reviewer,
    verdict,
    ...(verdict === "impact" ? { lost: [{ value: "v", category: "evidence_detail" }] } : {}),
    ...extra,
  });
  const item = itemIdForLabel(base)!;

  test("one label gives its verdict; a majority wins; a tie is split and gives none", () => {
    assert.deepEqual(referenceVerdicts([label("a", "gold:L1", "no_impact")]), { verdicts: new Map([[item, "no_impact"]]), split: [] });
    assert.deepEqual(
      referenceVerdicts([label("a", "gold:L1", "no_impact"), label("b", "ann", "impact"), label("c", "bob", "impact")]).verdicts.get(item),
      "impact",
    );
    assert.deepEqual(referenceVerdicts([label("a", "gold:L1", "no_impact"), label("b", "ann", "impact")]), { verdicts: new Map(), split: [item] });
  });

  test("a retracted label counts for nothing, in the reference and in the labellers' ratings", () => {
    const labels = [label("a", "gold:L1", "no_impact"), label("b", "ann", "impact", { retracted: true })];
    assert.deepEqual(referenceVerdicts(labels).verdicts.get(item), "no_impact");
    assert.deepEqual(viewVerdictRatings(labels), [{ unit: item, reviewer: "gold:L1", value: "no_impact" }]);
  });
});

describe("the blind verdict form (viewVerdictDraft)", () => {
  test("no verdict yet says which keys to press", () => {
    assert.deepEqual(viewVerdictDraft(EMPTY_VIEW_VERDICT), { missing: "Pick 1 (no impact), 2 (restorable) or 3 (impact)." });
  });

  test("no impact needs nothing more; the comment is trimmed and kept only when written", () => {
    assert.deepEqual(viewVerdictDraft({ ...EMPTY_VIEW_VERDICT, verdict: "no_impact", lost: "ignored", comment: "  " }), {
      draft: { kind: "view_verdict", verdict: "no_impact" },
    });
    assert.deepEqual(viewVerdictDraft({ ...EMPTY_VIEW_VERDICT, verdict: "no_impact", comment: " re-derived by grep " }), {
      draft: { kind: "view_verdict", verdict: "no_impact", comment: "re-derived by grep" },
    });
  });

  test("impact needs the lost values (one per line) and their category", () => {
    assert.ok("missing" in viewVerdictDraft({ ...EMPTY_VIEW_VERDICT, verdict: "impact", lost: "gift_card_8887175" }));
    assert.ok("missing" in viewVerdictDraft({ ...EMPTY_VIEW_VERDICT, verdict: "impact", category: "locator_handle", lost: " \n " }));
    assert.deepEqual(viewVerdictDraft({ ...EMPTY_VIEW_VERDICT, verdict: "impact", category: "locator_handle", lost: "gift_card_8887175\n\n  M05KNL \n" }), {
      draft: {
        kind: "view_verdict",
        verdict: "impact",
        lost: [
          { value: "gift_card_8887175", category: "locator_handle" },
          { value: "M05KNL", category: "locator_handle" },
        ],
      },
    });
  });

  test("restorable needs the sidecars, one per line or separated by spaces or commas", () => {
    assert.ok("missing" in viewVerdictDraft({ ...EMPTY_VIEW_VERDICT, verdict: "restorable" }));
    assert.deepEqual(viewVerdictDraft({ ...EMPTY_VIEW_VERDICT, verdict: "restorable", restores: "714fd9f2570b, bdfbb078eb54\nabcdefabcdef" }), {
      draft: { kind: "view_verdict", verdict: "restorable", restores: ["714fd9f2570b", "bdfbb078eb54", "abcdefabcdef"] },
    });
  });
});
