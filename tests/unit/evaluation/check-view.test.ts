import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkView } from "../../../lib/evaluation/judge/check-view";
import { replayCuts } from "../../../lib/evaluation/cuts/cut-protocol";
import { extractDependencies } from "../../../lib/evaluation/judge/dependencies";
import type { CheckedDependency } from "../../../lib/evaluation/judge/types";
import { findPolicy } from "../../../lib/compaction/policies/registry";
import { analyze, call, cutBefore, prose, result, runAt, scriptedPolicy, session, step, text, type Analyzed } from "./fixtures";
import { scenarioSuite, covers } from "./scenario-recall";

/**
 * An ops session: a failed rerun (JOB-11111), a bulky log with one needed line in its middle, the
 * successful rerun (JOB-22222) with its report link, and a user constraint. The future waits on
 * the good job and quotes the log line, the link and the constraint's topic.
 */
const LOG_LINE = "WARN retry budget exhausted after 9 attempts at batch 208/659 for ledger rows";
const ops = analyze(
  session([
    ["system", [text("You are an ops agent.")]],
    ["user", [text("Rerun the nightly ledger export and send me the report link. Do not touch the production pool.")]],
    ...step("c1", "exec", { cmd: "schedctl rerun nightly-ledger" }, "queued JOB-11111 on pool default\nJOB-11111 FAILED: upstream throttled"),
    ...step("c2", "exec", { cmd: "schedctl logs JOB-11111 --full" }, `${prose(2_000, "a")}\n${LOG_LINE}\n${prose(2_000, "b")}`),
    ...step(
      "c3",
      "exec",
      { cmd: "schedctl rerun nightly-ledger --pool=canary" },
      "queued JOB-22222 on pool canary\nreport: https://reports.example.com/r/abc123",
    ),
    ["assistant", [text("The rerun is queued.")]],
    ["user", [text("Thanks. Wait for it.")]],
    ...step("c4", "exec", { cmd: "schedctl wait JOB-22222" }, "done"),
    ["assistant", [text(`JOB-22222 finished; the log said: ${LOG_LINE}. Report: https://reports.example.com/r/abc123. I kept it off the production pool.`)]],
  ]),
);
const CUT = 10;
const opsDeps = extractDependencies(ops.session, ops.index, CUT).dependencies;

async function check(a: Analyzed, cut: number, edits: Parameters<typeof scriptedPolicy>[0]): Promise<CheckedDependency[]> {
  const result = await runAt(scriptedPolicy(edits), a, cut);
  return checkView({ session: a.session, index: a.index, dependencies: extractDependencies(a.session, a.index, cut).dependencies, result });
}
const byValue = (checked: CheckedDependency[], value: string) => {
  const found = checked.find((d) => d.value === value || d.value.includes(value));
  assert.ok(found, `no dependency for ${value}: ${checked.map((d) => d.value).join(" | ")}`);
  return found;
};

describe("check-view on a hand-built ops session", () => {
  test("the fixture has the dependencies the cases rely on", () => {
    for (const value of ["JOB-22222", "https://reports.example.com/r/abc123", LOG_LINE, "Do not touch the production pool."])
      byValue(
        opsDeps.map((d) => ({ ...d, status: "visible" })),
        value,
      );
  });

  test("no edits: everything visible", async () => {
    const checked = await check(ops, CUT, []);
    assert.ok(checked.every((d) => d.status === "visible"));
  });

  test("pruning the successful rerun's result loses its job id as live state (the failed id stays) and its link as a locator", async () => {
    const checked = await check(ops, CUT, [{ target: "function:exec:3", action: "prune" }]);
    const job = byValue(checked, "JOB-22222");
    assert.equal(job.status, "lost");
    assert.equal(job.category, "live_state");
    assert.deepEqual(job.lostBy, { target: "function:exec:3", action: "prune", rule: "test/prune" });
    const link = byValue(checked, "https://reports.example.com/r/abc123");
    assert.equal(link.category, "locator_handle");
    assert.equal(byValue(checked, LOG_LINE).status, "visible");
  });

  test("when the stale id is gone too, the lost job id is a plain locator loss", async () => {
    const checked = await check(
      ops,
      CUT,
      ["function:exec:1", "function:exec:2", "function:exec:3"].map((target) => ({ target, action: "prune" as const })),
    );
    assert.equal(byValue(checked, "JOB-22222").category, "locator_handle");
  });

  test("a fold keeps a value restorable: its pointer names the sidecar's digest", async () => {
    const checked = await check(ops, CUT, [{ target: "function:exec:2", action: "fold" }]);
    const line = byValue(checked, LOG_LINE);
    assert.equal(line.status, "restorable");
    assert.deepEqual(line.sidecar?.target, "function:exec:2");
  });

  test("values the fold pointer itself mentions (its anchors) stay visible", async () => {
    const checked = await check(ops, CUT, [{ target: "function:exec:3", action: "fold" }]);
    assert.equal(byValue(checked, "JOB-22222").status, "visible");
  });

  test("a whole-turn fold leaves the tool outputs inside it restorable: the pointer names the turn's sidecar", async () => {
    const checked = await check(ops, CUT, [{ target: "conversation:user:1", action: "fold" }]);
    for (const value of [LOG_LINE, "JOB-22222"]) {
      const d = byValue(checked, value);
      assert.equal(d.status, "restorable", value);
      assert.equal(d.sidecar?.target, "conversation:user:1", "the value is in the turn's sidecar (the span's JSON payload is decoded)");
    }
    assert.equal(byValue(checked, "Do not touch the production pool.").status, "visible");
  });

  test("a value in a sidecar no view text names is lost as recovery routing, however the rest of the view reads", async () => {
    const result = await runAt(scriptedPolicy([{ target: "conversation:user:1", action: "fold" }]), ops, CUT);
    const sidecar = result.sidecars.find((s) => s.target === "conversation:user:1")!;
    const unnamed = result.view.map((message) => ({
      ...message,
      parts: message.parts.map((part) =>
        part.type === "text" ? { ...part, text: part.text.split(sidecar.sha256).join("").split(sidecar.sha256.slice(0, 12)).join("") } : part,
      ),
    }));
    const checked = checkView({ session: ops.session, index: ops.index, dependencies: opsDeps, result: { ...result, view: unnamed } });
    const d = byValue(checked, LOG_LINE);
    assert.equal(d.status, "lost");
    assert.equal(d.category, "recovery_routing");
    assert.equal(d.sidecar?.target, "conversation:user:1");
  });

  test("a mask that elides the middle of a log loses the sparse line as evidence detail", async () => {
    const checked = await check(ops, CUT, [{ target: "function:exec:2", action: "mask" }]);
    const line = byValue(checked, LOG_LINE);
    assert.equal(line.status, "lost");
    assert.equal(line.category, "evidence_detail");
    assert.equal(line.lostBy?.action, "mask");
  });

  test("pruning the first turn loses the user's constraint as a behavioral contract", async () => {
    const checked = await check(ops, CUT, [{ target: "conversation:user:1", action: "prune" }]);
    const constraint = byValue(checked, "Do not touch the production pool.");
    assert.equal(constraint.kind, "constraint");
    assert.equal(constraint.category, "behavioral_contract");
    assert.equal(constraint.lostBy?.target, "conversation:user:1");
  });
});

describe("restorable is decided by the digest, never by what else a pointer says", () => {
  const NEEDED = "Audit and access logs are kept for a retention window of 836 days";
  const build = (args: Record<string, unknown>) =>
    analyze(
      session([
        ["user", [text("Check the vendor's security page")]],
        ...step("s1", "browser_snapshot", args, `${prose(1_500, "c")}\n${NEEDED}, then purged.\n${prose(1_500, "d")}`),
        ["assistant", [text("Captured.")]],
        ["user", [text("Which retention did it say?")]],
        ["assistant", [text(`It says: ${NEEDED}.`)]],
      ]),
    );

  test("a folded payload whose pointer names only the tool is restorable, with its sidecar", async () => {
    const checked = await check(build({}), 5, [{ target: "function:browser:1", action: "fold" }]);
    const d = byValue(checked, NEEDED);
    assert.equal(d.status, "restorable");
    assert.equal(d.sidecar?.target, "function:browser:1");
  });

  test("the same fold with a locator in its pointer is restorable too: pointer wording never changes a verdict", async () => {
    const checked = await check(build({ url: "https://vendor.example/security" }), 5, [{ target: "function:browser:1", action: "fold" }]);
    assert.equal(byValue(checked, NEEDED).status, "restorable");
  });

  test("a pointer naming another object's digest does not make this one restorable", async () => {
    const a = build({});
    const result = await runAt(scriptedPolicy([{ target: "function:browser:1", action: "fold" }]), a, 5);
    const sidecar = result.sidecars[0]!;
    const other = "f".repeat(64);
    const view = result.view.map((message) => ({
      ...message,
      parts: message.parts.map((part) => {
        const swap = (t: string) => t.split(sidecar.sha256).join(other).split(sidecar.sha256.slice(0, 12)).join(other.slice(0, 12));
        if (part.type === "text") return { ...part, text: swap(part.text) };
        if (part.type === "tool_result") return { ...part, content: swap(part.content) };
        return part;
      }),
    }));
    const checked = checkView({
      session: a.session,
      index: a.index,
      dependencies: extractDependencies(a.session, a.index, 5).dependencies,
      result: { ...result, view },
    });
    const d = byValue(checked, NEEDED);
    assert.equal(d.status, "lost");
    assert.equal(d.category, "recovery_routing");
  });
});

describe("instruction files", () => {
  test("a value from an instruction-file read is a behavioral contract when lost", async () => {
    const a = analyze(
      session([
        ["user", [text("Commit the fix")]],
        ...step("r1", "read_file", { path: "AGENTS.md" }, "Conventions:\nAlways run `make verify-ledger-integrity` before committing."),
        ["assistant", [text("Read the conventions.")]],
        ["user", [text("Go ahead")]],
        ["assistant", [text("Running `make verify-ledger-integrity` first."), call("x1", "exec", { cmd: "make verify-ledger-integrity" })]],
        ["tool", [result("x1", "ok")]],
      ]),
    );
    const checked = await check(a, 5, [{ target: "function:read:1", action: "prune" }]);
    const d = byValue(checked, "make verify-ledger-integrity");
    assert.equal(d.status, "lost");
    assert.equal(d.category, "behavioral_contract");
  });
});

describe("check-view on scenarios with real policies", () => {
  const suite = scenarioSuite([1, 2]);

  test("the none policy leaves every replay cut without impact", async () => {
    const none = findPolicy("none")!;
    for (const { scenario, index } of suite) {
      const a = { session: scenario.session, index };
      for (const cut of replayCuts(a.session, index)) {
        const checked = checkView({
          session: a.session,
          index,
          dependencies: extractDependencies(a.session, index, cut.cut).dependencies,
          result: await runAt(none, a, cut.cut),
        });
        assert.ok(
          checked.every((d) => d.status === "visible"),
          `${a.session.id} cut ${cut.cut}`,
        );
      }
    }
  });

  test("tool-prune: a lost planted locator is lost with a locator or live-state category and the pruned result as culprit", async () => {
    const policy = findPolicy("tool-prune")!;
    let seen = 0;
    for (const { scenario, index } of suite) {
      const a = { session: scenario.session, index };
      for (const planted of scenario.groundTruth.filter((g) => g.category === "locator_handle" || g.category === "live_state")) {
        const cutAt = cutBefore(a.session, planted.usedAt.message);
        if (cutAt <= planted.plantedAt.message) continue;
        const result = await runAt(policy, a, cutAt);
        const checked = checkView({ session: a.session, index, dependencies: extractDependencies(a.session, index, cutAt).dependencies, result });
        const d = checked.find((x) => covers(x.value, planted.anchor));
        if (!d || d.status !== "lost") continue;
        seen++;
        assert.ok(d.category === "locator_handle" || d.category === "live_state", `${planted.anchor}: ${d.category}`);
        assert.equal(d.lostBy?.action, "prune");
        assert.ok(result.actions.some((x) => x.target === d.lostBy?.target));
      }
    }
    assert.ok(seen >= 3, `only ${seen} planted locators were lost`);
  });

  test("a summary policy's losses are attributed to summarize actions on the planting object or its turn", async () => {
    const policy = findPolicy("codex")!;
    let seen = 0;
    for (const { scenario, index } of suite) {
      const a = { session: scenario.session, index };
      for (const cut of replayCuts(a.session, index)) {
        const result = await runAt(policy, a, cut.cut);
        for (const d of checkView({ session: a.session, index, dependencies: extractDependencies(a.session, index, cut.cut).dependencies, result })) {
          if (d.status !== "lost") continue;
          seen++;
          assert.equal(d.lostBy?.action, "summarize", `${d.value}`);
        }
      }
    }
    assert.ok(seen > 0);
  });
});
