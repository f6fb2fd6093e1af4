import assert from "node:assert/strict";
import { test } from "node:test";
import { offloadWithPreviewPolicy } from "../../../../../lib/compaction/policies/pruning/offload-with-preview";
import type { TargetReport } from "../../../../../lib/compaction/policies/shared/target";
import { foldPointer } from "../../../../../lib/compaction/projection/pointers";
import { sha256Hex, utf8Bytes } from "../../../../../lib/util/sha256";
import { analyze, assertValidPairs, plainParts, run, session, step, text, viewByOrigin } from "./fixtures";

/** `n` numbered lines of about 80 characters. */
const numbered = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed} ${String(i).padStart(5, "0")} ${"abcdefghij".repeat(7)}`).join("\n");
const big = numbered(1_020, "big"); // ~83K chars: over 4 × 20,000
const under = numbered(960, "under"); // ~78K chars: under the limit
const s = session([
  ["system", [text("sys")]],
  ["user", [text("Collect the logs")]],
  ...step("c1", "Bash", big),
  ...step("c2", "Bash", under),
  ["assistant", [text("Collected.")]],
  ["user", [text("Thanks")]],
  ["assistant", [text("Welcome.")]],
]);
const a = analyze(s);
const contentAt = (r: Awaited<ReturnType<typeof run>>, m: number) => {
  const part = viewByOrigin(r).get(m)!.parts[0]!;
  return part.type === "tool_result" ? part.content : "";
};

test("defaults follow Deep Agents: 20,000 tokens (4 chars per token), a 10-line preview, nothing exempt", () => {
  assert.deepEqual(
    offloadWithPreviewPolicy.params.map((p) => [p.name, p.default]),
    [
      ["limitTokens", 20_000],
      ["previewLines", 10],
      ["excludeTools", ""],
    ],
  );
});

test("a result over the limit goes to a sidecar; its first lines and the harness's pointer stay in view", async () => {
  const r = await run(offloadWithPreviewPolicy, a, { window: 1_000_000 });
  assert.deepEqual(
    r.actions.map((x) => [x.target, x.action, x.rule]),
    [["function:exec:1", "fold", "offload-with-preview/offload-large-result"]],
  );
  const sidecar = r.sidecars.find((x) => x.target === "function:exec:1")!;
  assert.equal(sidecar.payload, big, "the sidecar holds the result byte for byte");
  assert.equal(sidecar.sha256, sha256Hex(big));
  const object = a.index.byId.get("function:exec:1")!;
  const pointer = foldPointer(s, a.index, object, { sha256: sidecar.sha256, bytes: utf8Bytes(big).length }, "semantic");
  const lines = big.split("\n");
  assert.equal(contentAt(r, 3), `${lines.slice(0, 10).join("\n")}\n[… 1,010 more lines in the sidecar …]\n${pointer}`);
  assert.deepEqual(plainParts(viewByOrigin(r).get(5)!), s.messages[5]!.parts, "the result under the limit stays");
  assert.match(
    viewByOrigin(r)
      .get(1)!
      .parts.map((p) => (p.type === "text" ? p.text : ""))
      .join("\n"),
    /\[fold\] function:exec:1 is in sidecar/,
  );
  assertValidPairs(r);
});

test("excluded tools and results in the protected latest turn are never offloaded", async () => {
  const excluded = await run(offloadWithPreviewPolicy, a, { window: 1_000_000, params: { excludeTools: "Bash" } });
  assert.deepEqual(excluded.actions, []);
  const latest = analyze(session([["system", [text("sys")]], ["user", [text("Collect")]], ...step("c1", "Bash", big)]));
  const r = await run(offloadWithPreviewPolicy, latest, { window: 1_000_000 });
  assert.deepEqual(r.actions, [], "the only big result is in the latest turn");
});

test("under a harness target the limit drops, largest results first, until the view fits", async () => {
  const sizes = [30_000, 50_000, 20_000];
  const mixed = analyze(
    session([
      ["system", [text("sys")]],
      ["user", [text("Collect")]],
      ...sizes.flatMap((chars, i) => step(`c${i + 1}`, "Bash", numbered(Math.round(chars / 80), `r${i}`))),
      ["assistant", [text("Done.")]],
      ["user", [text("Thanks")]],
      ["assistant", [text("Welcome.")]],
    ]),
  );
  const prefix = mixed.index.prefixTokens.at(-1)!;
  const own = await run(offloadWithPreviewPolicy, mixed, { window: 1_000_000 });
  assert.deepEqual(own.actions, [], "nothing is over 20,000 tokens");
  // The 50K-char result is half the prefix: offloading it alone does not fit 45%; with the 30K-char one it does.
  const r = await run(offloadWithPreviewPolicy, mixed, { window: 1_000_000, targetTokens: Math.round(prefix * 0.45) });
  assert.deepEqual(
    r.actions.map((x) => x.target),
    ["function:exec:2", "function:exec:1"],
  );
  const report = r.details!.target as TargetReport;
  assert.ok(report.reached && r.tokensAfter <= report.tokens, `${r.tokensAfter} ≤ ${report.tokens}`);
  assert.match(report.knob, /^limit = \d+ tokens$/);
  const smallest = mixed.session.messages[3]!.parts[0]!;
  assert.equal(
    report.knob,
    `limit = ${Math.ceil(((smallest.type === "tool_result" ? smallest.content.length : 0) - 1) / 4)} tokens`,
    "just below the smallest offloaded result",
  );
});
