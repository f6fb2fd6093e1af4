import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { miniSweAgentImporter } from "../../../lib/trace/importers/mini-swe-agent";
import type { Message, ParseIssue, Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readManifest } from "../../helpers/traces";

const manifest = readManifest();
const rows = manifest.filter((row) => row.format === "mini_swe_agent_traj");
const errorsOf = (issues: ParseIssue[]) => issues.filter((i) => i.severity === "error");
const partsOf = (sessions: Session[], type: Part["type"]) => sessions.flatMap((s) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type)));
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const lineOfText = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split("\n").length;

/** A small trajectory in the real shape (mini-swe-agent 1.1 with LiteLLM responses). */
function trajectory(messages: unknown[], model = "deepseek/deepseek-chat") {
  return {
    info: { model_stats: { instance_cost: 0.01, api_calls: 1 }, config: { model: { model_name: model } }, mini_version: "2.2.7", exit_status: "Submitted" },
    messages,
    trajectory_format: "mini-swe-agent-1.1",
    instance_id: "demo__demo-1",
  };
}
const assistantCall = (id: string, command: string, extra: Record<string, unknown>) => ({
  role: "assistant",
  content: "Let me look.",
  tool_calls: [{ index: 0, id, type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }],
  extra,
});
const toolResult = (id: string, returncode: number, extra: Record<string, unknown> = {}) => ({
  role: "tool",
  tool_call_id: id,
  content: `<returncode>${returncode}</returncode>\n<output>\n</output>`,
  extra: { raw_output: "", returncode, timestamp: 1775803318.25, exception_info: "", ...extra },
});

describe("mini_swe_agent_traj: real trajectories match the MANIFEST", () => {
  it("has mini_swe_agent_traj rows to check", () => assert.ok(rows.length >= 5));

  for (const row of rows) {
    it(row.path, async () => {
      const { sessions, issues } = await miniSweAgentImporter.parse(await sourceFromFile(row.absolutePath, row.path));
      assert.deepEqual(errorsOf(issues), []);
      assert.equal(sessions.length, row.sessions);
      // The final `exit` record counts as a message, as in the MANIFEST.
      assert.equal(
        sessions.reduce((n, s) => n + s.messages.length, 0),
        row.messages,
        "messages",
      );
      assert.equal(partsOf(sessions, "tool_call").length, row.toolCalls, "tool_call parts");
      assert.equal(partsOf(sessions, "tool_result").length, row.toolResults, "tool_result parts");
      assert.equal(partsOf(sessions, "tool_result").filter((p) => p.type === "tool_result" && p.orphan).length, 0, "every result links to its call");
      assert.deepEqual(
        sessions.flatMap((s) => s.models),
        row.models,
      );
      const session = sessions[0]!;
      const last = session.messages.at(-1)!;
      assert.equal(last.meta?.exit, true, "the exit record is the last message");
      assert.equal(last.parts[0]?.type, "other");
      assert.ok(session.startedAt && !Number.isNaN(Date.parse(session.startedAt)), "timestamps come from extra.timestamp");
      assert.ok(
        session.messages.some((m) => (m.usage?.inputTokens ?? 0) > 0),
        "usage comes from extra.response.usage",
      );
    });
  }
});

describe("mini_swe_agent_traj: detection", () => {
  it("scores its own files at least 0.5, even when the 64 KiB head ends before trajectory_format", async () => {
    let withoutFormatKey = 0;
    for (const row of rows) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      if (!source.head.includes('"trajectory_format"')) withoutFormatKey++;
      assert.ok(miniSweAgentImporter.detect(row.path, source.head) >= 0.5, row.path);
    }
    assert.ok(withoutFormatKey > 0, "the real files do put trajectory_format last");
  });

  it("scores every other format's files below 0.3 (Claude Code and aider included)", async () => {
    const others = manifest.filter((row) => row.format !== "mini_swe_agent_traj");
    assert.ok(others.some((r) => r.format === "claude_code_jsonl") && others.some((r) => r.format === "aider_chat_md"));
    for (const row of others) {
      const source = await sourceFromFile(row.absolutePath, row.path);
      assert.ok(miniSweAgentImporter.detect(row.path, source.head) < 0.3, row.path);
    }
  });
});

describe("mini_swe_agent_traj: mapping", () => {
  const response = (usage: Record<string, unknown>) => ({ model: "deepseek-chat", usage });
  const messages = [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "<pr_description>\nFix it\n</pr_description>" },
    assistantCall("call_1", "ls", {
      response: response({ prompt_tokens: 1714, completion_tokens: 84, prompt_tokens_details: { cached_tokens: 320 }, prompt_cache_hit_tokens: 320 }),
      timestamp: 1775803317.5,
    }),
    toolResult("call_1", 0),
    assistantCall("call_2", "grep -r nothing .", {
      response: response({ prompt_tokens: 2000, completion_tokens: 10, prompt_cache_hit_tokens: 1800 }),
      timestamp: 1775803320,
    }),
    toolResult("call_2", 1),
    assistantCall("call_3", "pip install x", { response: response({ prompt_tokens: 2100, completion_tokens: 12 }) }),
    toolResult("call_3", -1, { exception_info: "An error occurred while executing the command: timeout" }),
    { role: "exit", content: "diff --git a/x b/x", extra: { exit_status: "Submitted", submission: "diff --git a/x b/x" } },
  ];

  it("maps timestamps, usage, model and failures", async () => {
    const { sessions, issues } = await miniSweAgentImporter.parse(sourceFromText("demo.traj.json", pretty(trajectory(messages))));
    assert.deepEqual(issues, []);
    const session = sessions[0]!;
    assert.equal(session.id, "demo__demo-1");
    assert.equal(session.title, "demo__demo-1");
    assert.deepEqual(session.models, ["deepseek/deepseek-chat"], "the configured LiteLLM name, not the provider's echo");
    const [, , first, firstResult, second, secondResult, , thirdResult, exit] = session.messages;
    assert.equal(first!.timestamp, new Date(1775803317500).toISOString());
    assert.equal(first!.model, "deepseek/deepseek-chat");
    assert.deepEqual(first!.usage, { inputTokens: 1714, outputTokens: 84, cachedInputTokens: 320 });
    assert.deepEqual(second!.usage, { inputTokens: 2000, outputTokens: 10, cachedInputTokens: 1800 }, "DeepSeek prompt_cache_hit_tokens");
    assert.equal(firstResult!.role, "tool");
    assert.deepEqual(firstResult!.meta, { returncode: 0 });
    const errorFlag = (m: Message | undefined) => m?.parts.some((p) => p.type === "tool_result" && p.isError === true) ?? false;
    assert.equal(errorFlag(firstResult), false);
    assert.equal(errorFlag(secondResult), true, "non-zero return code");
    assert.equal(errorFlag(thirdResult), true, "execution exception");
    assert.deepEqual(exit, {
      index: 8,
      role: "assistant",
      parts: [{ type: "other", kind: "exit", text: "diff --git a/x b/x" }],
      source: { file: "demo.traj.json", line: exit!.source.line },
      meta: { exit: true, exitStatus: "Submitted" },
    });
    assert.deepEqual(session.meta, {
      instanceId: "demo__demo-1",
      trajectoryFormat: "mini-swe-agent-1.1",
      miniVersion: "2.2.7",
      exitStatus: "Submitted",
      apiCalls: 1,
      cost: 0.01,
    });
  });

  it("falls back to the response's model when the config names none", async () => {
    const raw = trajectory(messages.slice(0, 4));
    raw.info.config = { model: {} } as typeof raw.info.config;
    const { sessions } = await miniSweAgentImporter.parse(sourceFromText("demo.traj.json", pretty(raw)));
    assert.deepEqual(sessions[0]!.models, ["deepseek-chat"]);
  });

  it("keeps reasoning_content as a reasoning part", async () => {
    const reasoning = { ...assistantCall("call_1", "ls", {}), reasoning_content: "Think first." };
    const { sessions } = await miniSweAgentImporter.parse(sourceFromText("demo.traj.json", pretty(trajectory([reasoning]))));
    assert.deepEqual(
      sessions[0]!.messages[0]!.parts.map((p) => p.type),
      ["reasoning", "text", "tool_call"],
    );
  });
});

describe("mini_swe_agent_traj: malformed input", () => {
  it("an array where the trajectory object belongs is a located error naming the shape", async () => {
    const { sessions, issues } = await miniSweAgentImporter.parse(sourceFromText("x.traj.json", pretty([{ role: "user", content: "hi" }])));
    assert.equal(sessions.length, 0);
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.severity, "error");
    assert.equal(issues[0]!.line, 1);
    assert.match(issues[0]!.message, /expected a JSON object .*messages.*found an array/);
    assert.match(issues[0]!.expected ?? "", /info, messages, trajectory_format, instance_id/);
  });

  it("a trajectory without messages is an error on the messages field", async () => {
    const raw: Record<string, unknown> = trajectory([]);
    delete raw.messages;
    const { sessions, issues } = await miniSweAgentImporter.parse(sourceFromText("x.traj.json", pretty(raw)));
    assert.equal(sessions.length, 0);
    assert.deepEqual(
      issues.map((i) => [i.severity, i.field]),
      [["error", "messages"]],
    );
  });

  it("a message without a role is located by line and field; the rest imports", async () => {
    const text = pretty(trajectory([{ role: "system", content: "s" }, { content: "who am I" }, { role: "user", content: "task" }]));
    const { sessions, issues } = await miniSweAgentImporter.parse(sourceFromText("x.traj.json", text));
    assert.deepEqual(
      sessions[0]!.messages.map((m) => m.role),
      ["system", "user"],
    );
    assert.equal(issues.length, 1);
    assert.equal(issues[0]!.field, "messages[1].role");
    assert.equal(issues[0]!.line, lineOfText(text, '"who am I"') - 1, "the line where the message starts");
  });

  it("without instance_id the session is named after the file", async () => {
    const raw: Record<string, unknown> = trajectory([{ role: "user", content: "task" }]);
    delete raw.instance_id;
    const { sessions } = await miniSweAgentImporter.parse(sourceFromText("runs/astropy__astropy-1.traj.json", pretty(raw)));
    assert.equal(sessions[0]!.id, "astropy__astropy-1");
  });
});
