import assert from "node:assert/strict";
import { test } from "node:test";
import { compactView, expandView } from "../../../../lib/evaluation/views/compact-view";
import { findPolicy } from "../../../../lib/compaction/policies/registry";
import { analyze, call, prose, result, runAt, scriptedPolicy, session, step, text } from "../fixtures";

const a = analyze(
  session([
    ["user", [text("Read the config and fix it.")]],
    ...step("r1", "read", { path: "/srv/app/config.yaml" }, prose(1_200)),
    ["assistant", [text("Read."), call("r2", "read", { path: "/srv/app/other.yaml" })]],
    ["tool", [result("r2", prose(900, "o"))]],
    ["user", [text("Now fix it.")]],
  ]),
);

test("an untouched view is all references to the prefix, and expands back to itself", async () => {
  const view = (await runAt(findPolicy("none")!, a, 5)).view;
  const compact = compactView(a.session.messages, view);
  assert.ok(compact.every((m) => m.parts.every((p) => "same" in p)));
  assert.deepEqual(
    expandView(a.session.messages, compact),
    view.map((m) => ({ ...m, parts: m.parts.map(({ objectId: _o, ...p }) => p) })),
  );
});

test("edited parts are written in full; the rest stay references", async () => {
  const view = (await runAt(scriptedPolicy([{ target: "function:read:1", action: "fold" }]), a, 5)).view;
  const compact = compactView(a.session.messages, view);
  const full = compact.flatMap((m) => m.parts).filter((p) => !("same" in p));
  assert.ok(
    full.some((p) => "action" in p && p.action === "fold"),
    "the fold pointer is written in full",
  );
  assert.ok(compact.flatMap((m) => m.parts).some((p) => "same" in p));
  const expanded = expandView(a.session.messages, compact);
  assert.deepEqual(
    expanded.map((m) => m.parts.map((p) => p.type)),
    view.map((m) => m.parts.map((p) => p.type)),
  );
});
