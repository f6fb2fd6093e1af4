import assert from "node:assert/strict";
import { test } from "node:test";
import { findSecrets, applySpans } from "../../../lib/redact/find-secrets";
import { redactLines, type LineRedaction } from "../../../lib/redact/redact-lines";

const BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK";
const KEY = `-----BEGIN RSA PRIVATE KEY-----\\n${BODY}\\n-----END RSA PRIVATE KEY-----`;

test("a PEM key inside a JSON string (\\n escapes) is redacted whole and the line stays valid JSON", () => {
  const line = JSON.stringify({ role: "tool", content: JSON.parse(`"${KEY}"`), after: "kept" });
  const spans = findSecrets(line);
  assert.deepEqual(
    spans.map((s) => s.kind),
    ["private_key"],
  );
  const out = applySpans(line, spans);
  assert.deepEqual(JSON.parse(out), { role: "tool", content: "[REDACTED:private_key]", after: "kept" });
});

test("a truncated PEM key inside a JSON string stops at the string's closing quote", () => {
  const truncated = `-----BEGIN PRIVATE KEY-----\\n${BODY}`;
  const line = `{"content":"${truncated}","next":"MIIEvisible"}`;
  const out = applySpans(line, findSecrets(line));
  assert.equal(out, `{"content":"[REDACTED:private_key]","next":"MIIEvisible"}`);
});

test("raw lines: a truncated key in one JSONL line does not swallow the following lines", async () => {
  const report: LineRedaction[] = [];
  const lines = [`{"content":"-----BEGIN PRIVATE KEY-----\\n${BODY}"}`, `{"content":"next line"}`];
  const out: string[] = [];
  for await (const line of redactLines(lines, report)) out.push(line);
  assert.deepEqual(out, [`{"content":"[REDACTED:private_key]"}`, `{"content":"next line"}`]);
  assert.deepEqual(
    report.map((r) => [r.line, r.kind, r.start]),
    [[1, "private_key", 12]],
  );
});

test("raw multi-line text: a truncated key still runs over its body lines", () => {
  const text = `key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHC\nozMxH2Mo4lgOEePzNm0t`;
  assert.equal(applySpans(text, findSecrets(text)), "key:\n[REDACTED:private_key]");
});
