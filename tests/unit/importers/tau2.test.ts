import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { tau2Importer } from "../../../lib/trace/importers/tau2";
import type { ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readAllManifests, readNewManifest } from "../../helpers/traces-new";

const rows = readNewManifest().filter((r) => r.format === "tau2_simulation");
const telecom = rows.find((r) => r.path.includes("telecom"))!;
const newer = rows.find((r) => r.path.includes("whissle"))!;
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (s: Session, type: Part["type"]) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type));
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const lineOfText = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;
const parse = async (text: string) => tau2Importer.parse(sourceFromText("sim.json", text));

const info = {
  agent_info: { implementation: "llm_agent", llm: "gpt-4o" },
  user_info: { implementation: "user_simulator", llm: "gpt-4o-mini" },
  environment_info: { domain_name: "airline", policy: "# Airline policy" },
};
const simulation = (id: string, messages: unknown[], more: Record<string, unknown> = {}) => ({
  id,
  task_id: "3",
  trial: 0,
  messages,
  reward_info: { reward: 1 },
  ...more,
});
const results = (simulations: unknown[]) => pretty({ timestamp: "2025-10-05T07:52:52.943171", info, tasks: [], simulations });
const say = (role: string, content: unknown, more: Record<string, unknown> = {}) => ({ role, content, timestamp: "2025-10-05T07:53:00.000001", ...more });

describe("tau2_simulation: the telecom dual-control simulations", () => {
  let sessions: Session[];
  let lines: string[];
  before(async () => {
    const result = await tau2Importer.parse(await sourceFromFile(telecom.absolutePath, telecom.path));
    assert.deepEqual(errorsOf(result.issues), []);
    sessions = result.sessions;
    lines = readFileSync(telecom.absolutePath, "utf8").split("\n");
  });

  it("names each session by its simulation id and keeps the run's facts as meta", () => {
    const first = sessions[0]!;
    assert.equal(first.id, "dac64168-f4bf-4bc8-b02b-7599eb73ea8e");
    assert.equal(first.startedAt, "2025-10-05T07:52:53.033471");
    assert.deepEqual(first.models, ["xai/grok-3"]);
    assert.equal(first.meta?.taskId, "[mobile_data_issue]data_mode_off|data_usage_exceeded[PERSONA:None]");
    assert.equal(first.meta?.reward, 1);
    assert.equal(first.meta?.terminationReason, "user_stop");
    assert.equal(first.meta?.domain, "telecom");
    assert.equal(first.meta?.userModel, "xai/grok-3");
    assert.equal(first.title, "Hi, I'm having some issues with my mobile data. It's either not working at all …");
  });

  it("opens every session with the domain policy and points each message at its opening brace", () => {
    for (const session of sessions) {
      const [policy, ...rest] = session.messages;
      assert.equal(policy!.role, "system");
      assert.deepEqual(policy!.meta, { tau2Policy: true });
      assert.ok(lines[policy!.source.line - 1]!.startsWith('      "policy": "<main_policy>\\n# Telecom Agent Policy'), `${session.id}: the policy's line`);
      let previous = 0;
      for (const m of rest) {
        assert.equal(lines[m.source.line - 1]!.trim(), "{", `${session.id} message ${m.index}`);
        assert.ok(m.source.line > previous);
        previous = m.source.line;
      }
    }
  });

  it("keeps the user's own device tool calls in order, flagged requestor=user, each answered", () => {
    const userCalls = sessions.flatMap((s) => s.messages.filter((m) => m.role === "user" && m.parts.some((p) => p.type === "tool_call")));
    assert.equal(userCalls.flatMap((m) => m.parts.filter((p) => p.type === "tool_call")).length, 25);
    assert.ok(userCalls.every((m) => m.meta?.requestor === "user"));
    const userResults = sessions.flatMap((s) => s.messages.filter((m) => m.role === "tool" && m.meta?.requestor === "user"));
    assert.equal(userResults.length, 25);
    for (const session of sessions)
      for (const result of partsOf(session, "tool_result")) assert.equal(result.type === "tool_result" && result.orphan, undefined);
    const toggle = sessions[0]!.messages.find((m) => m.parts.some((p) => p.type === "tool_call" && p.name === "toggle_data"))!;
    assert.equal(toggle.role, "user");
    const answer = sessions[0]!.messages[toggle.index + 1]!.parts[0]!;
    assert.equal(answer.type === "tool_result" ? answer.name : answer.type, "toggle_data");
  });

  it("puts the agent's usage and model on assistant messages only", () => {
    const first = sessions[0]!;
    assert.deepEqual(first.messages[3]!.usage, { inputTokens: 6725, outputTokens: 43 });
    assert.equal(first.messages[3]!.model, "xai/grok-3");
    assert.ok(first.messages.filter((m) => m.role !== "assistant").every((m) => m.usage === undefined && m.model === undefined));
  });
});

describe("tau2_simulation: the newer schema (simulation policy, audio fields, error results)", () => {
  it("reads 50 simulations with their own policy and flags failing tool results", async () => {
    const { sessions, issues } = await tau2Importer.parse(await sourceFromFile(newer.absolutePath, newer.path));
    assert.deepEqual(errorsOf(issues), []);
    assert.equal(sessions.length, 50);
    const text = readFileSync(newer.absolutePath, "utf8").split("\n");
    const policyLine = sessions[0]!.messages[0]!.source.line;
    assert.ok(/^\s+"policy": "# Airline Agent Policy/.test(text[policyLine - 1]!), "the policy's line");
    assert.ok(policyLine > lineOfText(text.join("\n"), '"simulations"'), "the simulation's own policy, not info's");
    assert.equal(sessions.flatMap((s) => partsOf(s, "tool_result")).filter((p) => p.type === "tool_result" && p.isError).length, 12);
  });
});

describe("tau2_simulation: detection", () => {
  it("scores its own files at least 0.9 and every other real trace below 0.3", async () => {
    for (const row of readAllManifests()) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      const score = tau2Importer.detect(row.path, source.head);
      if (row.format === "tau2_simulation") assert.ok(score >= 0.9, row.path);
      else assert.ok(score < 0.3, `${row.path}: ${score}`);
    }
  });

  it("recognises a head cut inside info, before the simulations", () => {
    const head =
      '{\n  "timestamp": "2025-10-05T07:52:52",\n  "info": {\n    "user_info": {"implementation": "user_simulator", "llm": "x"},\n    "agent_info": {"llm": "y"},\n    "environment_info": {"domain_name": "retail", "policy": "# Ret';
    assert.ok(tau2Importer.detect("results.json", head) >= 0.9);
  });
});

describe("tau2_simulation: malformed input", () => {
  it("an array where the results object belongs is an error naming the shape", async () => {
    const { sessions, issues } = await parse(pretty([{ simulations: [] }]));
    assert.equal(sessions.length, 0);
    assert.deepEqual(
      issues.map((i) => [i.line, i.severity]),
      [[1, "error"]],
    );
    assert.match(issues[0]!.message, /expected a tau2 results object, found an array/);
    assert.match(issues[0]!.expected ?? "", /simulations/);
  });

  it("a results object without simulations is located at the field", async () => {
    const { issues } = await parse(pretty({ info, tasks: [] }));
    assert.deepEqual(
      issues.map((i) => [i.field, i.expected]),
      [["simulations", "array"]],
    );
  });

  it("a bad message is reported with its line, field and every problem; the rest imports", async () => {
    const text = results([simulation("s1", [say("assistant", "Hi"), say("env", 3), say("tool", "{}"), say("user", "bye")])]);
    const { sessions, issues } = await parse(text);
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.role),
      ["system", "assistant", "user"],
    );
    const errors = errorsOf(issues);
    assert.deepEqual(
      errors.map((i) => i.field),
      ["simulations[0].messages[1].role", "simulations[0].messages[1].content", "simulations[0].messages[2].id"],
    );
    assert.equal(errors[0]!.line, lineOfText(text, '"role": "env"'));
    assert.match(errors[0]!.expected ?? "", /"assistant"/);
    assert.equal(errors[1]!.expected, "string");
    assert.match(errors[2]!.message, /without the id of the call/);
  });

  it("a simulation without messages is skipped with a located error; the others import", async () => {
    const text = results([simulation("s1", [say("user", "hi")]), { id: "s2", task_id: "4" }, simulation("s3", [say("user", "yo")])]);
    const { sessions, issues } = await parse(text);
    assert.deepEqual(
      sessions.map((s) => s.id),
      ["s1", "s3"],
    );
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.field, i.line]),
      [["simulations[1].messages", lineOfText(text, '"id": "s2"') - 1]],
    );
  });

  it("repeated or missing simulation ids still give unique, stable session ids", async () => {
    const { sessions } = await parse(results([simulation("s1", []), simulation("s1", []), { task_id: 7, trial: 2, messages: [] }]));
    assert.deepEqual(
      sessions.map((s) => s.id),
      ["s1", "s1-2", "task-7-trial-2"],
    );
  });

  it("tool calls keep their object arguments as JSON and link to their results", async () => {
    const call = { id: "c1", name: "get_user_details", arguments: { user_id: "u1" }, requestor: "assistant" };
    const { sessions } = await parse(
      results([
        simulation("s1", [say("assistant", null, { tool_calls: [call] }), say("tool", '{"name":"A"}', { id: "c1", requestor: "assistant", error: true })]),
      ]),
    );
    const [, assistant, tool] = sessions[0]!.messages;
    assert.deepEqual(assistant!.parts, [{ type: "tool_call", id: "c1", name: "get_user_details", arguments: '{"user_id":"u1"}' }]);
    assert.deepEqual(tool!.parts, [{ type: "tool_result", callId: "c1", name: "get_user_details", content: '{"name":"A"}', isError: true }]);
    assert.equal(tool!.meta, undefined, "a result for the agent carries no requestor flag");
  });
});
