import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { codexRolloutImporter } from "../../../lib/trace/importers/codex-rollout";
import type { Part, Session } from "../../../lib/trace/model";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readNewManifest } from "../../helpers/traces-new";

/**
 * Codex rollouts from more Codex versions (../shared/traces-new): CLI 0.39 (codex_vscode), CLI
 * 0.125 (codex-tui: custom and web-search tool calls, base instructions) and Codex Desktop
 * 0.128-alpha, whose lean rollout has no turn_context, no token_count and no user response items.
 */
const rows = readNewManifest().filter((r) => r.format === "codex_rollout_jsonl");
const byVersion = (part: string) => rows.find((r) => r.path.includes(part))!;
const v039 = byVersion("Mai0313");
const v0125 = byVersion("11-26-55");
const lean = byVersion("13-28-45");
const partsOf = (s: Session, type: Part["type"]) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type));
const load = async (row: { absolutePath: string; path: string }) => {
  const { sessions, issues } = await codexRolloutImporter.parse(await sourceFromFile(row.absolutePath, row.path));
  assert.deepEqual(issues, []);
  return sessions[0]!;
};
const rawLines = (row: { absolutePath: string }) =>
  readFileSync(row.absolutePath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });
const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const line = (type: string, payload: unknown) => ({ timestamp: "2026-05-11T08:00:00.000Z", type, payload });

describe("codex_rollout_jsonl: CLI 0.125 (codex-tui)", () => {
  it("opens with the recorded base instructions as the system prompt", async () => {
    const session = await load(v0125);
    const [system] = session.messages;
    assert.equal(system!.role, "system");
    assert.equal(system!.source.line, 1);
    assert.deepEqual(system!.meta, { baseInstructions: true });
    assert.ok(system!.parts[0]!.type === "text" && system!.parts[0]!.text.startsWith("You are Codex"));
    assert.equal(session.meta?.cliVersion, "0.125.0");
    assert.deepEqual(session.models, ["gpt-5.5"]);
  });

  it("makes each web_search_call a web_search tool call named by its web_search_end event, with no result", async () => {
    const session = await load(v0125);
    const searches = partsOf(session, "tool_call").filter((p) => p.type === "tool_call" && p.name === "web_search");
    const events = rawLines(v0125).filter((l) => l.type === "event_msg" && l.payload.type === "web_search_end");
    assert.deepEqual(
      searches.map((p) => p.type === "tool_call" && p.id),
      events.map((e) => e.payload.call_id),
    );
    assert.equal(
      JSON.parse(searches[0]!.type === "tool_call" ? searches[0]!.arguments : "{}").query,
      "OpenCode config compact context percentage compact threshold env var OPENCODE_CONFIG_CONTENT",
    );
    const answered = new Set(partsOf(session, "tool_result").map((p) => (p.type === "tool_result" ? p.callId : "")));
    assert.ok(searches.every((p) => p.type === "tool_call" && !answered.has(p.id)));
  });

  it("links custom_tool_call apply_patch calls to their outputs", async () => {
    const session = await load(v0125);
    const patches = partsOf(session, "tool_call").filter((p) => p.type === "tool_call" && p.name === "apply_patch");
    assert.equal(patches.length, 3);
    for (const patch of patches) {
      assert.ok(patch.type === "tool_call" && patch.arguments.startsWith("*** Begin Patch"));
      const result = partsOf(session, "tool_result").find((p) => p.type === "tool_result" && patch.type === "tool_call" && p.callId === patch.id);
      assert.ok(result?.type === "tool_result" && result.name === "apply_patch" && !result.orphan);
    }
  });

  it("does not repeat the user_message echo of a user response item", async () => {
    for (const row of [v039, v0125]) {
      const session = await load(row);
      const items = rawLines(row).filter((l) => l.type === "response_item" && l.payload.type === "message" && l.payload.role === "user");
      assert.equal(session.messages.filter((m) => m.role === "user").length, items.length, row.path);
    }
  });
});

describe("codex_rollout_jsonl: the lean Codex Desktop rollout", () => {
  it("takes the user's turns from user_message events, in their places", async () => {
    const session = await load(lean);
    const users = session.messages.filter((m) => m.role === "user");
    assert.deepEqual(
      users.map((m) => m.source.line),
      [2, 31, 33],
    );
    // Each follows what came before it in the file: the system prompt, then the answers at lines 30 and 32.
    assert.deepEqual(
      users.map((m) => session.messages[m.index - 1]!.source.line),
      [1, 30, 32],
    );
    assert.deepEqual(
      users.map((m) => session.messages[m.index + 1]!.role),
      ["assistant", "assistant", "assistant"],
    );
    assert.equal(session.title, "analyze trascript and summarzie action items related to codemie and demo preapr…");
    assert.deepEqual(session.models, [], "no turn_context: the model is not recorded");
  });
});

describe("codex_rollout_jsonl: user_message events, by hand", () => {
  const meta = line("session_meta", { id: "s-1" });
  const userItem = (text: string) => line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
  const userEvent = (message: string, more: Record<string, unknown> = {}) => line("event_msg", { type: "user_message", message, ...more });
  const reply = line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] });
  const texts = (s: Session) => s.messages.map((m) => `${m.role}:${m.parts.map((p) => (p.type === "text" ? p.text : p.type)).join("+")}`);

  it("an event written before its response item is not doubled", async () => {
    const { sessions } = await codexRolloutImporter.parse(
      sourceFromText("r.jsonl", jsonl(meta, userEvent("fix it"), userItem("# Context from my IDE setup:\n\n## My request for Codex:\nfix it"), reply)),
    );
    assert.deepEqual(texts(sessions[0]!), ["user:# Context from my IDE setup:\n\n## My request for Codex:\nfix it", "assistant:ok"]);
    assert.equal(sessions[0]!.title, "fix it");
  });

  it("an event no item carries becomes the user message, with its images as placeholders", async () => {
    const { sessions } = await codexRolloutImporter.parse(
      sourceFromText("r.jsonl", jsonl(meta, userEvent("look", { images: ["data:image/png;base64,iVBORw0KGgo="] }), reply, userEvent("again"))),
    );
    assert.deepEqual(texts(sessions[0]!), ["user:look+image", "assistant:ok", "user:again"]);
    assert.deepEqual(sessions[0]!.messages[0]!.parts[1], { type: "image", mediaType: "image/png", bytes: 8 });
  });

  it("a web_search_call without a preceding event gets a synthetic id", async () => {
    const search = line("response_item", { type: "web_search_call", status: "completed", action: { type: "search", query: "zod v4" } });
    const { sessions } = await codexRolloutImporter.parse(sourceFromText("r.jsonl", jsonl(meta, userItem("search"), search)));
    assert.deepEqual(sessions[0]!.messages[1]!.parts, [
      { type: "tool_call", id: "call_1", name: "web_search", arguments: '{"type":"search","query":"zod v4"}' },
    ]);
  });
});
