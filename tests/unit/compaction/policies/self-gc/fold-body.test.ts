import assert from "node:assert/strict";
import { test } from "node:test";
import { runPolicy } from "../../../../../lib/compaction/policies/run-policy";
import { selfGcPolicy } from "../../../../../lib/compaction/policies/self-gc/policy";
import { sha256Hex } from "../../../../../lib/util/sha256";
import { body, fixture, type Step } from "../../planner/fixtures";

/**
 * A session whose bulk is a generated report body (a Write's content) and a file read, followed by
 * a later turn long enough that the Write is outside the working set at the end of the prefix.
 */
const report = body("report", 200);
const steps: Step[] = [
  ["system", "You are an agent."],
  ["user", "Write the quarterly report."],
  ["call", "Read", { file_path: "/srv/data/q3.csv" }, body("rows", 120)],
  ["call", "Write", { file_path: "/srv/out/report.md", content: report }, "File written"],
  ["assistant", "Report written."],
  ["user", "Now check the build."],
  ...["make", "make test", "git status", "ls dist", "echo done"].map((command): Step => ["call", "Bash", { command }, "ok"]),
  ["assistant", `Build is fine. Notes:\n${body("notes", 150)}`],
  ["user", "Send me the summary."],
  ["assistant", "Sending."],
];

async function runSelfGc() {
  const { ctx } = fixture(steps);
  return runPolicy(selfGcPolicy, { session: ctx.session, index: ctx.index, cut: ctx.cut, window: ctx.window, tokenizer: ctx.tokenizer });
}

test("folding a Write span moves its generated body to a sidecar; the call keeps valid JSON, its path and a pointer", async () => {
  const r = await runSelfGc();
  assert.equal((r.details?.commit as { status: string }).status, "committed");
  const call = r.view.flatMap((m) => m.parts).find((p) => p.type === "tool_call" && p.name === "Write");
  assert.ok(call && call.type === "tool_call");
  const args = JSON.parse(call.arguments) as { file_path: string; content: string };
  assert.equal(args.file_path, "/srv/out/report.md");
  assert.match(args.content, /^<folded id="function:write:1" part="arguments" sidecar="sha256:[0-9a-f]{16}"/);
  const sidecar = r.sidecars.find((s) => s.payload.startsWith('[{"role"'));
  assert.ok(sidecar, "the call body has its own sidecar");
  assert.equal(sha256Hex(sidecar.payload), sidecar.sha256);
  const restored = JSON.parse(sidecar.payload) as { parts: { arguments: string }[] }[];
  assert.equal((JSON.parse(restored[0]!.parts[0]!.arguments) as { content: string }).content, report, "the body restores byte for byte");
  assert.ok(args.content.includes(sidecar.sha256.slice(0, 16)));
});

test("a folded result's pointer carries its semantic route (the path it read)", async () => {
  const r = await runSelfGc();
  const result = r.view.flatMap((m) => m.parts).find((p) => p.type === "tool_result" && p.objectId === "function:read:1");
  assert.ok(result && result.type === "tool_result");
  assert.match(result.content, /^<folded id="function:read:1" sidecar="sha256:[0-9a-f]{64}" bytes="\d+">Read\(\/srv\/data\/q3\.csv\)/);
});
