import assert from "node:assert/strict";
import { test } from "node:test";
import { applySpans, compileAllowList, findPlaceholders, findSecrets, redactLines, type LineRedaction } from "../../../lib/redact";

const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123";
const TEST_KEY = "sk-test-fixture0000000000000000000";

test("e-mail: addresses are found after a \\n escape, not decorators, scopes or git remotes", () => {
  const ordinary = [
    String.raw`class Thing:\n\t@enum.unique\n\tclass State(Enum):`,
    String.raw`\n@pytest.mark.parametrize("x", [1])`,
    "PromiseResolve = @Promise.@resolve.bind(@Promise)",
    "ffprobe-installer/darwin-arm64react-native-stylex@microsoft.azure/autorest-core",
    '"repository_url":"git@github.com:codemie-ai/codemie-code.git"',
  ];
  for (const text of ordinary) assert.deepEqual(findSecrets(text, { emails: true }), [], text);
  const addresses = String.raw`Logged in as:\njohn@company.com; Co-Authored-By: Claude <noreply@anthropic.com>; "email": "mai@mai0313.com"; write to a.b+c@sub.example.org.`;
  assert.equal(
    applySpans(addresses, findSecrets(addresses, { emails: true })),
    String.raw`Logged in as:\n[REDACTED:email]; Co-Authored-By: Claude <[REDACTED:email]>; "email": "[REDACTED:email]"; write to [REDACTED:email].`,
  );
});

test("a disabled kind is not looked for; the other rules still run", () => {
  const text = `key ${KEY} and DB_PASSWORD=hunter2`;
  assert.deepEqual(
    findSecrets(text, { disabled: ["openai_key"] }).map((s) => s.kind),
    ["password_assignment"],
  );
  assert.deepEqual(
    findSecrets(text, { disabled: ["password_assignment"] }).map((s) => s.kind),
    ["openai_key"],
  );
  const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----";
  assert.deepEqual(findSecrets(pem, { disabled: ["private_key"] }), []);
});

test("allow-listed values stay, by exact value or by a /regex/ matching the whole value", () => {
  const text = `API_KEY=${TEST_KEY} real ${KEY}`;
  const exact = compileAllowList([TEST_KEY]);
  assert.deepEqual(exact.issues, []);
  // The test key is also an assigned value: both rules' findings of it are dropped.
  assert.equal(applySpans(text, findSecrets(text, { allow: exact.list })), `API_KEY=${TEST_KEY} real [REDACTED:openai_key]`);
  const regex = compileAllowList(["/sk-test-[a-z0-9]+/"]).list;
  assert.equal(applySpans(text, findSecrets(text, { allow: regex })), `API_KEY=${TEST_KEY} real [REDACTED:openai_key]`);
  // Whole value only: a pattern matching part of a real key does not allow it.
  const partial = compileAllowList(["/abcdef/"]).list;
  assert.equal(findSecrets(text, { allow: partial }).length, 2);
});

test("allow-list entries are checked: bad regexes, flags, catch-alls and sizes are refused by position", () => {
  const { issues } = compileAllowList(["ok-value", "/[unclosed/", "/x/g", "/.*/", "/.+/", "", "x".repeat(501)]);
  assert.deepEqual(
    issues.map((i) => i.entry),
    [2, 3, 4, 5, 6, 7],
  );
  assert.match(issues[0]!.message, /not a valid regular expression/);
  assert.match(issues[1]!.message, /only i and u/);
  assert.match(issues[2]!.message, /matches any value/);
  assert.match(issues[5]!.message, /longer than 500/);
  assert.match(compileAllowList(Array.from({ length: 201 }, (_, i) => `v${i}`)).issues[0]!.message, /at most 200/);
});

test("raw lines honour the options too (disabled PEM keys do not swallow the following lines)", async () => {
  const report: LineRedaction[] = [];
  const out: string[] = [];
  const lines = ["-----BEGIN PRIVATE KEY-----", "MIIEvQ", "-----END PRIVATE KEY-----", `k=${KEY}`];
  for await (const line of redactLines(lines, report, { disabled: ["private_key"] })) out.push(line);
  assert.deepEqual(out, [...lines.slice(0, 3), "k=[REDACTED:openai_key]"]);
});

test("placeholders in stored text are found for the session view's markers; unknown kinds stay text", () => {
  const text = "a [REDACTED:openai_key] b [REDACTED:not_a_kind] c [REDACTED:password_assignment]";
  assert.deepEqual(
    findPlaceholders(text).map((p) => [p.kind, text.slice(p.start, p.end)]),
    [
      ["openai_key", "[REDACTED:openai_key]"],
      ["password_assignment", "[REDACTED:password_assignment]"],
    ],
  );
});
