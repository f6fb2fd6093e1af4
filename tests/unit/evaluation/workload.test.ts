import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { aggregatePolicies, type EvaluationRecord } from "../../../lib/evaluation/aggregate/aggregate";
import { aggregateBy, bySession } from "../../../lib/evaluation/aggregate/aggregate-by";
import { classifyWorkload, sessionWorkload, toolClass, WORKLOADS } from "../../../lib/evaluation/suites/workload";
import { loadEveryTrace } from "../../helpers/load-traces";
import { analyze, session, step, text, type Spec } from "./fixtures";

/** A session whose tool results are `tools` (raw names, one result each), in order. */
function withTools(id: string, tools: string[]) {
  const steps: Spec[] = tools.flatMap((name, i) => step(`${id}-${i}`, name, { arg: i }, `output ${i}`));
  return analyze(session([["user", [text("do the work")]], ...steps, ["assistant", [text("done")]]], { id }));
}

describe("toolClass", () => {
  test("maps normalised and raw names to the five classes, other, or bookkeeping (null)", () => {
    assert.equal(toolClass("exec", "Bash"), "shell");
    assert.equal(toolClass("exec", "exec_command"), "shell");
    assert.equal(toolClass("exec", "python"), "code", "a code interpreter is code although normalised to exec");
    assert.equal(toolClass("exec", "execute_ipython_cell"), "code");
    assert.equal(toolClass("browser", "browse_interactive"), "browser");
    assert.equal(toolClass("browser_click", "mcp__playwright__browser_click"), "browser", "Playwright MCP tools");
    assert.equal(toolClass("web_fetch", "WebFetch"), "web");
    assert.equal(toolClass("web_search", "WebSearch"), "web");
    for (const [tool, raw] of [
      ["read", "Read"],
      ["write", "str_replace_editor"],
      ["edit", "MultiEdit"],
      ["grep", "Grep"],
      ["glob", "Glob"],
    ] as const)
      assert.equal(toolClass(tool, raw), "file", raw);
    assert.equal(toolClass("get_reservation_details", "get_reservation_details"), "other", "a domain API");
    assert.equal(toolClass("todo", "TodoWrite"), null);
    assert.equal(toolClass("think"), null);
    assert.equal(toolClass("Bash"), "shell", "a raw name alone is normalised first");
  });
});

describe("classifyWorkload", () => {
  test("a strict majority class dominates; an even split is mixed; no counted result is none", () => {
    assert.equal(sessionWorkload(withTools("b", ["browser_snapshot", "browser_snapshot", "Bash"]).index).workload, "browser");
    assert.equal(sessionWorkload(withTools("s", ["Bash", "Bash", "Read", "Bash"]).index).workload, "shell");
    const split = sessionWorkload(withTools("m", ["Bash", "Bash", "Read", "Edit"]).index);
    assert.equal(split.workload, "mixed", "2 of 4 is not more than half");
    assert.deepEqual([split.counts.shell, split.counts.file, split.total, split.share], [2, 2, 4, 0.5]);
    assert.equal(sessionWorkload(withTools("c", ["python", "python", "Read"]).index).workload, "code");
    assert.equal(
      sessionWorkload(withTools("w", ["WebFetch", "WebSearch", "TodoWrite", "TodoWrite", "TodoWrite"]).index).workload,
      "web",
      "bookkeeping is not counted",
    );
    const none = sessionWorkload(withTools("n", ["TodoWrite"]).index);
    assert.deepEqual([none.workload, none.total, none.share], ["none", 0, 0]);
    assert.equal(sessionWorkload(withTools("e", []).index).workload, "none");
  });

  test("grouped counts (database rows) weigh as many results", () => {
    const mix = classifyWorkload([
      { tool: "exec", rawTool: "bash", count: 3 },
      { tool: "read", rawTool: "Read", count: 2 },
      { tool: null, rawTool: null },
    ]);
    assert.deepEqual([mix.workload, mix.total, mix.counts.shell], ["shell", 5, 3]);
  });
});

function record(policy: string, sessionId: string, cut: number, noImpact: boolean, pruneRate: number): EvaluationRecord {
  return {
    policy,
    sessionId,
    cut,
    prefixTokens: 1000,
    tokensAfter: Math.round(1000 * (1 - pruneRate)),
    pruneRate,
    noImpact,
    missingByCategory: noImpact ? {} : { locator_handle: 1 },
  };
}

describe("aggregateBy", () => {
  const records = [
    record("none", "a", 5, true, 0),
    record("tool-prune", "a", 5, false, 0.6),
    record("none", "a", 9, true, 0),
    record("tool-prune", "a", 9, true, 0.4),
    record("none", "b", 3, true, 0),
    record("tool-prune", "b", 3, false, 0.5),
    record("none", "c", 4, true, 0),
  ];
  const labels = new Map([
    ["a", "shell"],
    ["b", "file"],
  ]);

  test("each group's rows are aggregatePolicies over exactly that group's records", () => {
    const groups = aggregateBy(records, bySession(labels), ["tool-prune", "none"], ["file", "shell"]);
    assert.deepEqual(
      groups.map((g) => g.group),
      ["file", "shell", "unknown"],
      "given order, then others by name",
    );
    for (const g of groups) {
      const subset = records.filter((r) => (labels.get(r.sessionId) ?? "unknown") === g.group);
      assert.deepEqual(g.policies, aggregatePolicies(subset, ["tool-prune", "none"]), g.group);
    }
    const shell = groups[1]!;
    assert.deepEqual([shell.sessions, shell.cuts], [1, 2]);
    assert.deepEqual([shell.policies[0]!.noImpact, shell.policies[0]!.n, shell.policies[0]!.prunePct], [1, 2, 50]);
    assert.deepEqual(
      groups[2]!.policies.map((p) => p.n),
      [0, 1],
      "a policy without records in a group is a zero row",
    );
  });

  test("no records, no groups", () => {
    assert.deepEqual(
      aggregateBy([], () => "x", ["none"], ["x"]),
      [],
    );
  });
});

describe("workloads of the real traces", () => {
  test("every session gets one label; the counts are printed", async () => {
    const traces = await loadEveryTrace();
    const counts = new Map<string, number>();
    const byFormat = new Map<string, Map<string, number>>();
    let sessions = 0;
    for (const { entry, sessions: analyzed } of traces) {
      for (const { index } of analyzed) {
        const mix = sessionWorkload(index);
        assert.ok((WORKLOADS as readonly string[]).includes(mix.workload), mix.workload);
        assert.ok(mix.workload === "none" || mix.workload === "mixed" ? mix.share <= 0.5 : mix.share > 0.5);
        counts.set(mix.workload, (counts.get(mix.workload) ?? 0) + 1);
        const f = byFormat.get(entry.format) ?? new Map<string, number>();
        byFormat.set(entry.format, f);
        f.set(mix.workload, (f.get(mix.workload) ?? 0) + 1);
        sessions++;
      }
    }
    assert.equal(
      [...counts.values()].reduce((a, b) => a + b, 0),
      sessions,
    );
    assert.ok(sessions >= 200, `sessions: ${sessions}`);
    assert.ok((counts.get("shell") ?? 0) > 0 && (counts.get("other") ?? 0) > 0, "mini-swe-agent is shell work, tau-bench domain APIs");
    console.log(`workloads of ${sessions} sessions: ${JSON.stringify(Object.fromEntries(WORKLOADS.map((w) => [w, counts.get(w) ?? 0])))}`);
    for (const [format, f] of byFormat) console.log(`  ${format}: ${JSON.stringify(Object.fromEntries(f))}`);
  });
});
