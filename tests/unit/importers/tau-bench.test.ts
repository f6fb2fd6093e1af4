import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { modelFromFileName, tauBenchImporter } from "../../../lib/trace/importers/tau-bench";
import type { ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const manifest = readManifest();
const rows = manifest.filter((row) => row.format === "tau_bench_traj");
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
/** Pretty-printed like the real files, so line numbers are meaningful. */
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const lineOfText = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;

const message = (role: string, content: string | null, more: Record<string, unknown> = {}) => ({ role, content, ...more });
const episode = (taskId: number, trial: number, traj: unknown[] = [message("user", `hi from ${taskId}`)]) => ({
  task_id: taskId,
  reward: 1,
  info: {},
  traj,
  trial,
});

describe("tau_bench_traj: real trajectories match the MANIFEST", () => {
  it("has tau_bench_traj rows to check", () => assert.ok(rows.length >= 1));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions, issues } = await tauBenchImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      assert.deepEqual(errorsOf(issues), []);
      assert.equal(sessions.length, row.sessions);
      assert.equal(
        sessions.reduce((n, s) => n + s.messages.length, 0),
        row.messages,
        "messages",
      );
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "tool_call parts");
      assert.equal(partsOf(sessions, "tool_result").length, row.toolResults, "tool_result parts");
      assert.equal(partsOf(sessions, "tool_result").filter((p) => p.type === "tool_result" && p.orphan).length, 0, "every result links to its call");
      assert.equal(new Set(sessions.map((s) => s.id)).size, sessions.length, "session ids are unique");
      // The MANIFEST leaves models blank because tau-bench records the model only in the file name.
      const expectedModels = row.models.length > 0 ? row.models : [modelFromFileName(row.path)].filter(Boolean);
      assert.deepEqual([...new Set(sessions.flatMap((s) => s.models))], expectedModels);
    });
  }

  it("gpt-4o-airline.json: episode ids, meta and the line of every message", async () => {
    const row = rows.find((r) => r.path.endsWith("gpt-4o-airline.json"));
    assert.ok(row);
    const lines = readFileSync(row.absolutePath, "utf8").split("\n");
    const { sessions } = await tauBenchImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    const first = sessions[0]!;
    assert.equal(first.id, "task-0-trial-0");
    assert.deepEqual(first.meta, { taskId: 0, trial: 0, reward: 0 });
    assert.deepEqual(first.models, ["gpt-4o"]);
    assert.equal(first.messages[0]!.role, "system");
    for (const session of sessions) {
      let previous = 0;
      for (const m of session.messages) {
        assert.ok(m.source.line > previous, `${session.id} message ${m.index} line increases`);
        assert.equal(lines[m.source.line - 1]!.trim(), "{", `${session.id} message ${m.index} points at its opening brace`);
        previous = m.source.line;
      }
    }
  });
});

describe("tau_bench_traj: detection", () => {
  it("scores its own files at least 0.5", async () => {
    for (const row of rows) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(tauBenchImporter.detect(row.path, source.head) >= 0.5, row.path);
    }
  });

  it("scores every other format's files below 0.3 (Claude Code and aider included)", async () => {
    const others = manifest.filter((row) => row.format !== "tau_bench_traj");
    assert.ok(others.some((r) => r.format === "claude_code_jsonl") && others.some((r) => r.format === "aider_chat_md"));
    for (const row of others) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(tauBenchImporter.detect(row.path, source.head) < 0.3, row.path);
    }
  });

  it("recognises a head cut before the first traj", () => {
    const head = '[\n  {\n    "task_id": 3,\n    "reward": 1.0,\n    "info": {\n      "task": {"user_id": "x", "instr';
    assert.ok(tauBenchImporter.detect("results.json", head) >= 0.5);
  });
});

describe("tau_bench_traj: malformed input", () => {
  it("an object where the episode array belongs is a located error naming the shape", async () => {
    const { sessions, issues } = await tauBenchImporter.parse(sourceFromText("x.json", pretty({ task_id: 1, traj: [] })));
    assert.equal(sessions.length, 0);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.severity, "error");
    assert.equal(issues[0]!.line, 1);
    assert.match(issues[0]!.message, /expected a JSON array of episodes, found an object/);
    assert.match(issues[0]!.expected ?? "", /task_id.*traj/);
  });

  it("invalid JSON is reported at the line of the syntax error", async () => {
    const { sessions, issues } = await tauBenchImporter.parse(sourceFromText("x.json", '[\n  {"task_id": 1,\n   "traj": [1 2]}\n]'));
    assert.equal(sessions.length, 0);
    assert.equal(issues[0]!.line, 3);
  });

  it("an episode without traj is reported at its line with the field path; the others still import", async () => {
    const text = pretty([episode(1, 0), { task_id: 2, reward: 0, info: {}, trial: 0 }, episode(3, 0)]);
    const { sessions, issues } = await tauBenchImporter.parse(sourceFromText("x.json", text));
    assert.deepEqual(
      sessions.map((s) => s.id),
      ["task-1-trial-0", "task-3-trial-0"],
    );
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.field, "[1].traj");
    assert.equal(issues[0]!.severity, "error");
    assert.equal(issues[0]!.line, lineOfText(text, '"task_id": 2') - 1, "the line where the episode starts");
  });

  it("a bad message is located by line and field; the rest of the episode imports", async () => {
    const text = pretty([episode(1, 0, [message("user", "hi"), message("customer", "?"), message("assistant", "hello")])]);
    const { sessions, issues } = await tauBenchImporter.parse(sourceFromText("x.json", text));
    assert.equal(sessions[0]!.messages.length, 2);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.field, "[0].traj[1].role");
    assert.equal(issues[0]!.line, lineOfText(text, '"customer"') - 1);
  });

  it("episodes without task_id or with a repeated (task, trial) still get unique, stable ids", async () => {
    const text = pretty([episode(4, 1), episode(4, 1), { reward: 0, traj: [] }]);
    const { sessions, issues } = await tauBenchImporter.parse(sourceFromText("x.json", text));
    assert.deepEqual(
      sessions.map((s) => s.id),
      ["task-4-trial-1", "task-4-trial-1-2", "episode-2"],
    );
    assert.deepEqual(
      issues.map((i) => [i.severity, i.field]),
      [["warning", "[2].task_id"]],
    );
  });

  it("tool results link to the calls of their own episode only", async () => {
    const call = { id: "call_a", type: "function", function: { name: "get_user", arguments: "{}" } };
    const traj = [message("assistant", null, { tool_calls: [call] }), message("tool", "{}", { tool_call_id: "call_a", name: "get_user" })];
    const text = pretty([episode(1, 0, traj), episode(2, 0, [traj[1]])]);
    const { sessions } = await tauBenchImporter.parse(sourceFromText("x.json", text));
    const resultOf = (s: Session) => s.messages.flatMap((m) => m.parts).find((p) => p.type === "tool_result");
    assert.deepEqual(resultOf(sessions[0]!), { type: "tool_result", callId: "call_a", name: "get_user", content: "{}" });
    assert.equal(resultOf(sessions[1]!)?.type === "tool_result" && resultOf(sessions[1]!)?.orphan, true);
  });
});

describe("tau_bench_traj: model from the file name", () => {
  const cases: [string, string | undefined][] = [
    ["historical_trajectories/gpt-4o-airline.json", "gpt-4o"],
    ["claude-3-5-sonnet-20240620-retail.json", "claude-3-5-sonnet-20240620"],
    ["results/tool-calling-gpt-4o-mini-0.0_range_0--1_user-gpt-4o-llm_0930161122.json", "gpt-4o-mini"],
    ["react-meta-llama-3.1-70b-instruct-1.0_range_0-10_user-gpt-4o-llm_1001.json", "meta-llama-3.1-70b-instruct"],
    ["results.json", undefined],
  ];
  for (const [name, model] of cases) it(`${name} → ${model ?? "none"}`, () => assert.equal(modelFromFileName(name), model));
});
