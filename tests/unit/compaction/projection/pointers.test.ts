import assert from "node:assert/strict";
import { test } from "node:test";
import { buildProjection } from "../../../../lib/compaction/policies/self-gc/projection";
import { mergeReminders } from "../../../../lib/compaction/projection/pointers";
import { body, fixture } from "../planner/fixtures";

const reminder = (id: string, sha: string) => `[fold] ${id} is in sidecar ${sha} — recover it before quoting or editing it.`;

test("several fold reminders on one user message become one that names every object and digest", () => {
  const merged = mergeReminders([reminder("function:read:1", "aaaaaaaaaaaa"), reminder("function:read:2", "bbbbbbbbbbbb")]);
  assert.deepEqual(merged, ["[fold] function:read:1 is in sidecar aaaaaaaaaaaa, function:read:2 in bbbbbbbbbbbb — recover each before quoting or editing it."]);
});

test("a single reminder and reminders of another shape are left as they were", () => {
  assert.deepEqual(mergeReminders([reminder("function:read:1", "aaaaaaaaaaaa")]), [reminder("function:read:1", "aaaaaaaaaaaa")]);
  assert.equal(mergeReminders([reminder("function:read:2", "bbbbbbbbbbbb"), "[note] something else"]).length, 2);
});

test("folding two results of one turn leaves one reminder on its request, with both sidecar digests", () => {
  const { ctx, index } = fixture([
    ["system", "s"],
    ["user", "Read both files."],
    ["call", "Read", { file_path: "/a.txt" }, body("a", 40)],
    ["call", "Read", { file_path: "/b.txt" }, body("b", 40)],
    ["assistant", "Read."],
    ["user", "Now compare them."],
  ]);
  const edits = ["function:read:1", "function:read:2"].map((id) => ({
    id,
    object: index.byId.get(id)!,
    action: "fold" as const,
    reason: "stable_body",
    position: { line: 1, column: 1 },
  }));
  const { plan, sidecars } = buildProjection(ctx, edits);
  const texts = plan.reminders.get(1)!;
  assert.equal(texts.length, 1);
  for (const s of sidecars) assert.ok(texts[0]!.includes(s.sha256.slice(0, 12)));
});

test("the same fold of the same object by two policies yields byte-identical pointer text", async () => {
  const { runPolicy } = await import("../../../../lib/compaction/policies/run-policy");
  const { findPolicy } = await import("../../../../lib/compaction/policies/registry");
  const { ctx, index } = fixture([
    ["system", "s"],
    ["user", "Read the big file."],
    ["call", "Read", { file_path: "/src/big.ts" }, body("x", 400)],
    ["assistant", "Read it."],
    ["user", "Now something else entirely."],
    ["call", "Read", { file_path: "/src/other.ts" }, body("y", 400)],
    ["assistant", "Done."],
    ["user", "And one more."],
  ]);
  const pointerOf = async (policy: string, params: Record<string, number | string | boolean> = {}) => {
    const result = await runPolicy(findPolicy(policy)!, {
      session: ctx.session,
      index,
      cut: ctx.cut,
      window: ctx.window,
      tokenizer: ctx.tokenizer,
      params,
      targetTokens: Math.round(ctx.prefixTokens * 0.3),
    });
    for (const m of result.view) for (const p of m.parts) if (p.objectId === "conversation:user:1" && p.action === "fold" && p.type === "text") return p.text;
    return undefined;
  };
  const a = await pointerOf("oldest-turn");
  const b = await pointerOf("hybrid");
  assert.ok(a && a.includes("<folded"), "oldest-turn folded the first turn");
  assert.equal(a, b);
});

test("pointer styles: semantic names what was folded, plain only the object and digest", async () => {
  const { foldPointer } = await import("../../../../lib/compaction/projection/pointers");
  const { ctx, index } = fixture([
    ["system", "s"],
    ["user", "Read it."],
    ["call", "Read", { file_path: "/src/big.ts" }, body("x", 200)],
    ["user", "Next."],
  ]);
  const object = index.byId.get("function:read:1")!;
  const sidecar = { sha256: "a".repeat(64), bytes: 10 };
  const semantic = foldPointer(ctx.session, index, object, sidecar, "semantic");
  const plain = foldPointer(ctx.session, index, object, sidecar, "plain");
  assert.ok(semantic.includes("/src/big.ts"));
  assert.ok(!plain.includes("/src/big.ts"));
  for (const text of [semantic, plain]) assert.ok(text.includes(`sha256:${"a".repeat(64)}`));
});

test("a fold with a preview keeps the result's first lines, each cut to 1,000 characters, before the harness's pointer", async () => {
  const { foldObject, foldWithPreview } = await import("../../../../lib/compaction/policies/shared/object-edits");
  const { emptyPlan, partKey } = await import("../../../../lib/compaction/projection/types");
  const { PREVIEW_LINE_CHARS } = await import("../../../../lib/compaction/projection/pointers");
  const long = "L".repeat(1_500);
  const result = [long, ...Array.from({ length: 30 }, (_, i) => `line ${i + 2}`)].join("\n");
  const { ctx, index } = fixture([
    ["system", "s"],
    ["user", "Dump the table."],
    ["call", "Bash", { command: "dump" }, result],
    ["assistant", "Dumped."],
    ["user", "Thanks."],
  ]);
  const object = index.byId.get("function:exec:1")!;
  const plain = emptyPlan();
  foldObject(ctx, plain, object, "r", "x/fold");
  const pointer = (plain.parts.get(partKey(object.part!)) as { text: string }).text;
  const previewed = emptyPlan();
  const { action, sidecars } = foldWithPreview(ctx, previewed, object, 3, "r", "y/preview");
  const text = (previewed.parts.get(partKey(object.part!)) as { text: string }).text;
  assert.equal(text, `${"L".repeat(PREVIEW_LINE_CHARS)}…\nline 2\nline 3\n[… 28 more lines in the sidecar …]\n${pointer}`);
  assert.equal(sidecars[0]!.payload, result, "the sidecar holds the whole result");
  assert.deepEqual(previewed.reminders, plain.reminders, "the same reminder as a plain fold");
  assert.equal(action.tokensAfter, ctx.tokenizer.count(text));
  // Another policy asking for the same preview of the same object gets the same bytes.
  const again = emptyPlan();
  foldWithPreview(ctx, again, object, 3, "another reason", "z/other-policy");
  assert.equal((again.parts.get(partKey(object.part!)) as { text: string }).text, text);
  // A whole turn has no preview: it folds to the plain pointer.
  const turn = index.byId.get("conversation:user:1")!;
  const a = emptyPlan();
  const b = emptyPlan();
  foldObject(ctx, a, turn, "r", "x");
  foldWithPreview(ctx, b, turn, 3, "r", "y");
  assert.deepEqual([...b.parts], [...a.parts]);
});
