import assert from "node:assert/strict";
import { test } from "node:test";
import { previewRedaction, redactOptionsOf, DEFAULT_RULES } from "../../../lib/redact";

const KEY = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";

async function* chunks(text: string, size: number): AsyncIterable<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

test("the preview finds what the upload redacts, on the same lines, whatever the chunking", async () => {
  const text = `{"a":"no secret"}\r\n{"cmd":"curl -H 'Authorization: Bearer abcdef0123456789abcdef.xyz' -d key=${KEY}"}\n{"b":"DB_PASSWORD=hunter2"}`;
  const whole = await previewRedaction(chunks(text, text.length), redactOptionsOf(DEFAULT_RULES));
  for (const size of [1, 7, 64]) assert.deepEqual(await previewRedaction(chunks(text, size), redactOptionsOf(DEFAULT_RULES)), whole, `chunks of ${size}`);
  assert.equal(whole.lines, 3);
  assert.equal(whole.count, 3);
  assert.deepEqual(
    whole.findings.map((f) => [f.line, f.kind]),
    [
      [2, "bearer_token"],
      [2, "openai_key"],
      [3, "password_assignment"],
    ],
  );
});

test("excerpts mask the secret (a quarter at most) and show the other secrets of the line as placeholders", async () => {
  const text = `{"cmd":"curl -H 'Authorization: Bearer abcdef0123456789abcdef.xyz' -d key=${KEY}"}`;
  const { findings } = await previewRedaction(chunks(text, 5), redactOptionsOf(DEFAULT_RULES));
  const [bearer, openai] = findings;
  assert.equal(bearer!.excerpt.masked, "abcd… (26 chars)");
  assert.equal(bearer!.excerpt.after, "' -d key=[REDACTED:openai_key]\"}");
  assert.equal(openai!.excerpt.masked, "sk-p… (40 chars)");
  assert.equal(openai!.excerpt.before, "… Bearer [REDACTED:bearer_token]' -d key=");
  const shown = JSON.stringify(findings);
  assert.ok(!shown.includes(KEY.slice(0, 8)) && !shown.includes("abcdef0123"), "no secret beyond its first four characters");
  const pw = (await previewRedaction(chunks("password: hunter2", 3), redactOptionsOf(DEFAULT_RULES))).findings[0]!;
  assert.equal(pw.excerpt.masked, "h… (7 chars)");
});

test("the admin's rules apply: switched-off kinds and allow-listed values are not previewed", async () => {
  const text = `k=${KEY}\nDB_PASSWORD=hunter2\nmail dev@example.com`;
  const preview = await previewRedaction(chunks(text, 9), redactOptionsOf({ emails: true, disabled: ["password_assignment"], allow: [KEY] }));
  assert.deepEqual(
    preview.findings.map((f) => [f.line, f.kind]),
    [[3, "email"]],
  );
});

test("past the limit, findings are counted but not kept", async () => {
  const text = Array.from({ length: 30 }, (_, i) => `DB_PASSWORD=hunter${i + 10}`).join("\n");
  const preview = await previewRedaction(chunks(text, 100), redactOptionsOf(DEFAULT_RULES), 10);
  assert.equal(preview.count, 30);
  assert.equal(preview.findings.length, 10);
});
