import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { browserUseImporter } from "../../../lib/trace/importers/browser-use";
import { base64Bytes } from "../../../lib/trace/importers/claude-code-blocks";
import type { ParseIssue, Part, Session } from "../../../lib/trace/model";
import { partBody } from "../../../lib/trace/part-body";
import { sourceFromText } from "../../../lib/trace/source";
import { sourceFromFile } from "../../../server/trace/files/file-source";
import { readAllManifests, readNewManifest } from "../../helpers/traces-new";

const row = readNewManifest().find((r) => r.format === "browser_use_history")!;
const partsOf = (s: Session, type: Part["type"]) => s.messages.flatMap((m) => m.parts.filter((p) => p.type === type));
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const parse = (text: string) => browserUseImporter.parse(sourceFromText("AgentHistory.json", text));

describe("browser_use_history: a real AgentHistory.json (3.6 MB, mostly screenshots)", () => {
  let session: Session;
  let issues: ParseIssue[];
  let raw: { history: { state: { screenshot: string }; metadata: { input_tokens: number; step_start_time: number } }[] };
  before(async () => {
    const result = await browserUseImporter.parse(await sourceFromFile(row.absolutePath, row.path));
    session = result.sessions[0]!;
    issues = result.issues;
    raw = JSON.parse(readFileSync(row.absolutePath, "utf8"));
  });

  it("lives each step as observation, decision, results", () => {
    assert.deepEqual(issues, []);
    assert.equal(session.id, "AgentHistory");
    assert.deepEqual(
      session.messages.map((m) => m.role),
      Array.from({ length: 6 }, () => ["user", "assistant", "tool"]).flat(),
    );
    assert.deepEqual(session.meta, { steps: 6, done: true, success: true });
    assert.ok(session.title.startsWith("Search the web for official leaderboards"));
  });

  it("keeps each screenshot as an image placeholder of its decoded size, never as text", () => {
    const images = partsOf(session, "image");
    assert.deepEqual(
      images,
      raw.history.map((step) => ({ type: "image", mediaType: "image/png", bytes: base64Bytes(step.state.screenshot) })),
    );
    const longest = Math.max(...session.messages.flatMap((m) => m.parts.map((p) => partBody(p).length)));
    assert.ok(longest < 5_000, `longest part body ${longest} characters`);
    const screenshotHead = raw.history[1]!.state.screenshot.slice(0, 64);
    assert.ok(!session.messages.some((m) => m.parts.some((p) => partBody(p).includes(screenshotHead))));
  });

  it("pairs results with actions by position; the action after a failed one has no result", () => {
    const step3 = session.messages.slice(6, 9);
    const calls = step3[1]!.parts.filter((p) => p.type === "tool_call");
    assert.deepEqual(
      calls.map((c) => c.type === "tool_call" && c.name),
      ["click_element_by_index", "wait"],
    );
    const result = step3[2]!.parts[0]!;
    assert.ok(result.type === "tool_result" && calls[0]!.type === "tool_call" && result.callId === calls[0]!.id && result.isError === true);
    assert.match(result.type === "tool_result" ? result.content : "", /^Failed to click element/);
    assert.equal(step3[2]!.parts.length, 1);
  });

  it("carries the agent's reasoning fields, prompt size and step times", () => {
    const decisions = session.messages.filter((m) => m.role === "assistant");
    assert.deepEqual(
      decisions.map((m) => m.usage?.inputTokens),
      raw.history.map((s) => s.metadata.input_tokens),
    );
    assert.deepEqual(
      session.messages.filter((m) => m.role === "user").map((m) => m.timestamp),
      raw.history.map((s) => new Date(Math.round(s.metadata.step_start_time * 1000)).toISOString()),
    );
    const reasoning = decisions[0]!.parts[0]!;
    assert.ok(reasoning.type === "reasoning" && /^Evaluation of previous goal: .*\nMemory: .*\nNext goal: /s.test(reasoning.text));
  });
});

describe("browser_use_history: newer and odd steps", () => {
  it("reads the newer flat model_output (thinking, no current_state) and screenshot_path", async () => {
    const step = {
      model_output: {
        thinking: "The form is open.",
        evaluation_previous_goal: "Success",
        memory: "On the form",
        next_goal: "Submit it",
        action: [{ click: { index: 3 } }],
      },
      result: [{ is_done: false, long_term_memory: "Clicked submit" }],
      state: { url: "https://example.com/form", title: "Form", tabs: [], screenshot_path: "/tmp/shot-1.png" },
      metadata: { step_start_time: 1759555068.5, step_end_time: 1759555070.25, input_tokens: 1200, step_number: 1 },
    };
    const { sessions, issues } = await parse(pretty({ history: [step] }));
    assert.deepEqual(issues, []);
    const [observation, decision, results] = sessions[0]!.messages;
    assert.deepEqual(observation!.parts, [
      { type: "text", text: "URL: https://example.com/form\nTitle: Form" },
      { type: "image", mediaType: "image/png" },
    ]);
    assert.deepEqual(decision!.parts[0], {
      type: "reasoning",
      text: "Thinking: The form is open.\nEvaluation of previous goal: Success\nMemory: On the form\nNext goal: Submit it",
    });
    assert.deepEqual(results!.parts, [{ type: "tool_result", callId: "call_1", name: "click", content: "Clicked submit" }]);
    assert.equal(results!.timestamp, "2025-10-04T05:17:50.250Z");
    assert.equal(sessions[0]!.title, "Submit it");
  });

  it("results of a step without model output are kept as orphans", async () => {
    const { sessions } = await parse(
      pretty({ history: [{ model_output: null, result: [{ error: "LLM call failed", include_in_memory: true }], state: { url: "about:blank", tabs: [] } }] }),
    );
    const results = partsOf(sessions[0]!, "tool_result");
    assert.deepEqual(
      results.map((r) => r.type === "tool_result" && [r.content, r.isError, r.orphan]),
      [["LLM call failed", true, true]],
    );
  });
});

describe("browser_use_history: malformed input", () => {
  it("history that is not an array is located; a bad step is reported by field and skipped", async () => {
    const notArray = await parse(pretty({ history: { step: 1 } }));
    assert.deepEqual(
      notArray.issues.map((i) => [i.line, i.field]),
      [[2, "history"]],
    );
    const text = pretty({
      history: [
        { model_output: { action: "click" }, result: [], state: {} },
        { model_output: { action: [{ done: { text: "ok" } }] }, result: [{ extracted_content: "ok" }], state: { url: "u" } },
      ],
    });
    const { sessions, issues } = await parse(text);
    assert.equal(sessions[0]!.messages.length, 3);
    assert.deepEqual(
      issues.map((i) => [i.severity, i.field, i.line, i.expected]),
      [["error", "history[0].model_output.action", 4, "array"]],
    );
  });

  it("an empty action object is an error at its step; the step's other actions import", async () => {
    const { sessions, issues } = await parse(
      pretty({ history: [{ model_output: { action: [{}, { wait: { seconds: 1 } }] }, result: [{ extracted_content: "waited" }] }] }),
    );
    assert.deepEqual(
      issues.map((i) => i.field),
      ["history[0].model_output.action[0]"],
    );
    assert.deepEqual(
      partsOf(sessions[0]!, "tool_call").map((c) => c.type === "tool_call" && c.name),
      ["wait"],
    );
  });
});

describe("browser_use_history: detection", () => {
  it("scores its own file at least 0.9 and every other real trace below 0.3", async () => {
    for (const entry of readAllManifests()) {
      const { head } = await sourceFromFile(entry.absolutePath, entry.path);
      const score = browserUseImporter.detect(entry.path, head);
      if (entry.format === "browser_use_history") assert.ok(score >= 0.9, entry.path);
      else assert.ok(score < 0.3, `${entry.path}: ${score}`);
    }
  });
});
