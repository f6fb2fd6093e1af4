import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sweAgentImporter } from "../../../lib/trace/importers/swe-agent";
import type { ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const manifest = readManifest();
const rows = manifest.filter((row) => row.format === "swe_agent_traj");
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const lineOfText = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;
const fileName = (path: string) => path.split("/").pop() ?? path;
const resultsCallIds = (sessions: Session[]) => partsOf(sessions, "tool_result").map((p) => (p.type === "tool_result" ? p.callId : ""));

/**
 * Deliberate deviations from the MANIFEST's tool_results column. The MANIFEST counts one result per
 * `trajectory[]` step; messages come from `history[]` (the MANIFEST's messages column agrees). In
 * v0 runs that end on `submit`, the final step's observation exists only in `trajectory[]`: the
 * run stopped, no `user` message carried it and the model never saw it. Importing history
 * faithfully therefore leaves that last call without a result, exactly like the final submit call
 * of mini-swe-agent runs (which the MANIFEST also counts as unanswered). v1 histories include the
 * final observation, so marshmallow matches as is.
 */
const UNANSWERED_FINAL_SUBMIT: Record<string, number> = {
  "pydicom__pydicom-1458.traj": 1,
  "i_got_id_demo.traj": 1,
  "katy.traj": 1,
};

const trajectory = (history: unknown[], modelStats: Record<string, number> = {}) => ({
  environment: "swe_main",
  trajectory: [],
  history,
  info: { exit_status: "submitted", submission: "diff", model_stats: { instance_cost: 0.5, tokens_sent: 0, tokens_received: 0, api_calls: 2, ...modelStats } },
});
const v0 = {
  system: { role: "system", content: "SETTING: You are an autonomous programmer.", agent: "primary" },
  demo: { role: "user", content: "Here is a demonstration of how to correctly accomplish this task.", agent: "primary", is_demo: true },
  task: { role: "user", content: "We're currently solving the following issue.", agent: "primary" },
  action: (thought: string, action: string) => ({ role: "assistant", content: `${thought}\n\`\`\`\n${action}\`\`\``, thought, action, agent: "primary" }),
  observation: (content: string) => ({ role: "user", content, agent: "primary" }),
};

describe("swe_agent_traj: real trajectories match the MANIFEST", () => {
  it("has swe_agent_traj rows to check", () => assert.ok(rows.length >= 4));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions, issues } = await sweAgentImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      assert.deepEqual(errorsOf(issues), []);
      assert.equal(sessions.length, row.sessions);
      // Every history entry (system prompt and demonstrations included) is a message.
      assert.equal(
        sessions.reduce((n, s) => n + s.messages.length, 0),
        row.messages,
        "messages",
      );
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "tool_call parts");
      const expectedResults = row.toolResults - (UNANSWERED_FINAL_SUBMIT[fileName(row.path)] ?? 0);
      assert.equal(partsOf(sessions, "tool_result").length, expectedResults, "tool_result parts (see UNANSWERED_FINAL_SUBMIT)");
      assert.equal(partsOf(sessions, "tool_result").filter((p) => p.type === "tool_result" && p.orphan).length, 0, "every result links to its call");
      assert.deepEqual(
        sessions.flatMap((s) => s.models),
        row.models,
      );
    });
  }

  it("pydicom (v0): synthetic call ids, tool names from the command, the demo flagged, usage totals", async () => {
    const row = rows.find((r) => r.path.endsWith("pydicom__pydicom-1458.traj"));
    assert.ok(row);
    const { sessions } = await sweAgentImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    const session = sessions[0]!;
    assert.equal(session.id, "pydicom__pydicom-1458");
    assert.deepEqual(session.usage, { inputTokens: 122612, outputTokens: 1369 });
    assert.equal(session.meta?.exitStatus, "submitted");
    assert.deepEqual(
      session.messages.slice(0, 3).map((m) => [m.role, m.meta?.isDemo ?? false]),
      [
        ["system", false],
        ["user", true],
        ["user", false],
      ],
    );
    const calls = partsOf(sessions, "tool_call");
    assert.deepEqual(
      calls.map((c) => c.type === "tool_call" && c.id),
      calls.map((_, i) => `call_${i + 1}`),
    );
    assert.deepEqual(
      calls.slice(0, 4).map((c) => c.type === "tool_call" && c.name),
      ["create", "edit", "python", "find_file"],
    );
    assert.equal(calls[0]!.type === "tool_call" && calls[0]!.arguments, "create reproduce_bug.py\n");
    const observation = session.messages[4]!;
    const result = observation.parts[0]!;
    assert.equal(observation.role, "tool");
    assert.ok(result.type === "tool_result");
    assert.equal(result.callId, "call_1");
    assert.equal(result.name, "create");
    assert.match(result.content, /^\[File: \/pydicom__pydicom\/reproduce_bug.py/);
  });

  it("demo trajectories record zero tokens, which is no usage rather than zero usage", async () => {
    const row = rows.find((r) => r.path.endsWith("katy.traj"));
    assert.ok(row);
    const { sessions } = await sweAgentImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    assert.equal(sessions[0]!.usage, undefined);
  });

  it("marshmallow (v1): provider call ids link results through tool_call_ids", async () => {
    const row = rows.find((r) => r.path.endsWith("marshmallow-code__marshmallow-1867.traj"));
    assert.ok(row);
    const { sessions } = await sweAgentImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    const first = sessions[0]!.messages[2]!;
    assert.deepEqual(
      first.parts.map((p) => p.type),
      ["text", "tool_call"],
    );
    assert.equal(first.parts[1]!.type === "tool_call" && first.parts[1]!.id, "call_cyI71DYnRdoLHWwtZgIaW2wr");
    assert.equal(first.meta?.messageType, "action");
    const result = sessions[0]!.messages[3]!.parts[0]!;
    assert.equal(result.type === "tool_result" && result.callId, "call_cyI71DYnRdoLHWwtZgIaW2wr");
  });
});

describe("swe_agent_traj: detection", () => {
  it("scores its own files at least 0.5", async () => {
    for (const row of rows) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(sweAgentImporter.detect(row.path, source.head) >= 0.5, row.path);
    }
  });

  it("scores every other format's files below 0.3 (Claude Code, aider and mini-swe-agent included)", async () => {
    const others = manifest.filter((row) => row.format !== "swe_agent_traj");
    assert.ok(["claude_code_jsonl", "aider_chat_md", "mini_swe_agent_traj"].every((f) => others.some((r) => r.format === f)));
    for (const row of others) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(sweAgentImporter.detect(row.path, source.head) < 0.3, row.path);
    }
  });
});

describe("swe_agent_traj: v0 pairing", () => {
  it("an action's result is the next non-demo user message; a final action stays unanswered", async () => {
    const history = [v0.system, v0.demo, v0.task, v0.action("Run it.", "python reproduce.py\n"), v0.observation("Traceback…"), v0.action("Done.", "submit\n")];
    const { sessions, issues } = await sweAgentImporter.parse(sourceFromText("demo.traj", pretty(trajectory(history))));
    assert.deepEqual(issues, []);
    const messages = sessions[0]!.messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ["system", "user", "user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(messages[3]!.parts, [
      { type: "text", text: "Run it." },
      { type: "tool_call", id: "call_1", name: "python", arguments: "python reproduce.py\n" },
    ]);
    assert.deepEqual(messages[4]!.parts, [{ type: "tool_result", callId: "call_1", name: "python", content: "Traceback…" }]);
    assert.equal(messages[5]!.parts[1]!.type === "tool_call" && messages[5]!.parts[1]!.name, "submit");
  });

  it("a demo right after an action is not taken for its observation", async () => {
    const history = [v0.system, v0.task, v0.action("Look.", "ls\n"), v0.demo, v0.observation("file.py")];
    const { sessions } = await sweAgentImporter.parse(sourceFromText("demo.traj", pretty(trajectory(history))));
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.role),
      ["system", "user", "assistant", "user", "user"],
    );
  });

  it("demo steps kept in the history pair among themselves", async () => {
    const demoStep = { ...v0.action("Demo look.", "ls\n"), is_demo: true };
    const demoObservation = { ...v0.observation("demo.py"), is_demo: true };
    const history = [v0.system, demoStep, demoObservation, v0.task, v0.action("Look.", "ls\n"), v0.observation("file.py")];
    const { sessions } = await sweAgentImporter.parse(sourceFromText("demo.traj", pretty(trajectory(history))));
    assert.deepEqual(
      sessions[0]!.messages.map((m) => [m.role, m.meta?.isDemo ?? false]),
      [
        ["system", false],
        ["assistant", true],
        ["tool", true],
        ["user", false],
        ["assistant", false],
        ["tool", false],
      ],
    );
    assert.deepEqual(resultsCallIds(sessions), ["call_1", "call_2"]);
  });

  it("an assistant message without an action is plain text, and the user reply is plain user text", async () => {
    const history = [
      v0.task,
      { role: "assistant", content: "I need to think.", thought: "I need to think.", action: "", agent: "primary" },
      v0.observation("Please use a command."),
    ];
    const { sessions } = await sweAgentImporter.parse(sourceFromText("demo.traj", pretty(trajectory(history))));
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.role),
      ["user", "assistant", "user"],
    );
    assert.equal(partsOf(sessions, "tool_call").length, 0);
  });

  it("session usage comes from info.model_stats", async () => {
    const { sessions } = await sweAgentImporter.parse(sourceFromText("demo.traj", pretty(trajectory([v0.task], { tokens_sent: 1200, tokens_received: 80 }))));
    assert.deepEqual(sessions[0]!.usage, { inputTokens: 1200, outputTokens: 80 });
    assert.deepEqual(sessions[0]!.meta, { environment: "swe_main", exitStatus: "submitted", apiCalls: 2, cost: 0.5 });
  });
});

describe("swe_agent_traj: malformed input", () => {
  it("an array where the trajectory object belongs is a located error naming the shape", async () => {
    const { sessions, issues } = await sweAgentImporter.parse(sourceFromText("x.traj", pretty([v0.task])));
    assert.equal(sessions.length, 0);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.severity, "error");
    assert.equal(issues[0]!.line, 1);
    assert.match(issues[0]!.message, /expected a JSON object .*history.*found an array/);
    assert.match(issues[0]!.expected ?? "", /environment, trajectory, history, info/);
  });

  it("a trajectory without history is an error on the history field", async () => {
    const raw: Record<string, unknown> = trajectory([]);
    delete raw.history;
    const { sessions, issues } = await sweAgentImporter.parse(sourceFromText("x.traj", pretty(raw)));
    assert.equal(sessions.length, 0);
    assert.deepEqual(
      issues.map((i) => [i.severity, i.field]),
      [["error", "history"]],
    );
  });

  it("a history entry without a role is located by line and field; the rest imports", async () => {
    const text = pretty(trajectory([v0.system, { content: "no role here", agent: "primary" }, v0.task]));
    const { sessions, issues } = await sweAgentImporter.parse(sourceFromText("x.traj", text));
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.role),
      ["system", "user"],
    );
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.field, "history[1].role");
    assert.equal(issues[0]!.line, lineOfText(text, '"no role here"') - 1, "the line where the entry starts");
  });
});
