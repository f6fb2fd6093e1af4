import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claudeCodeImporter } from "../../../lib/trace/importers/claude-code";
import { sourceFromText } from "../../../lib/trace/source";
import { assistantRecord as assistant, BASH_CALL as call, errorsOf, jsonl, userRecord as user } from "../../helpers/claude-code-parse";

/* Lines the importer cannot take as they are: each is reported with its file, line and field, and the rest is kept. */
describe("claude_code_jsonl: edge cases", () => {
  it("reports a truncated last line as the file ending early, at its line, and keeps the lines before it", async () => {
    const text = jsonl(user("list files"), assistant([call])) + '{"type":"user","sessionId":"s-1","message":{"role":"user","content":[{"type":"tool_res';
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("cut.jsonl", text));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.file, i.line]),
      [["cut.jsonl", 3]],
    );
    assert.match(issues[0]!.message, /^the file ends early: the JSON stops at its last line \(3\) inside a string/);
    assert.equal(sessions[0]!.messages.length, 2);
    assert.equal(sessions[0]!.messages[1]!.parts[0]!.type, "tool_call");
  });

  it("reports a line that is an array or a number, naming what was expected", async () => {
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("odd.jsonl", jsonl("[1,2]", "42", user("hello"))));
    const errors = errorsOf(issues);
    assert.deepEqual(
      errors.map((i) => i.line),
      [1, 2],
    );
    assert.match(errors[0]!.message, /an array/);
    assert.match(errors[1]!.message, /a number/);
    for (const error of errors) assert.match(error.expected ?? "", /JSON object/);
    assert.equal(sessions[0]!.messages.length, 1);
  });

  it("locates a tool_result without tool_use_id by field", async () => {
    const { issues } = await claudeCodeImporter.parse(sourceFromText("bad.jsonl", jsonl(user([{ type: "tool_result", content: "x" }]))));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.line, i.field]),
      [[1, "message.content[0].tool_use_id"]],
    );
  });

  it("reports a message whose content is neither string nor array", async () => {
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("bad.jsonl", jsonl(user("ok"), user(7))));
    assert.deepEqual(
      errorsOf(issues).map((i) => [i.line, i.field]),
      [[2, "message.content"]],
    );
    assert.equal(sessions[0]!.messages.length, 1);
  });
  it("returns no session (and a warning) for a file without messages", async () => {
    const { sessions, issues } = await claudeCodeImporter.parse(sourceFromText("empty.jsonl", ""));
    assert.deepEqual(sessions, []);
    assert.deepEqual(errorsOf(issues), []);
  });
});
