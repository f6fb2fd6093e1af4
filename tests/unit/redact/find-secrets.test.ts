import assert from "node:assert/strict";
import { test } from "node:test";
import { applySpans, findSecrets } from "../../../lib/redact";

/** Positive cases: [input, expected redacted output]. Secrets are synthetic. */
const POSITIVE: [string, string][] = [
  ["key sk-proj-abcdefghijklmnopqrstuvwxyz0123 end", "key [REDACTED:openai_key] end"],
  ["ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuvwx", "ANTHROPIC_API_KEY=[REDACTED:anthropic_key]"],
  ["aws AKIAIOSFODNN7EXAMPLE here", "aws [REDACTED:aws_access_key] here"],
  ["gh ghp_abcdefghijklmnopqrstuvwxyz0123456789", "gh [REDACTED:github_token]"],
  ["pat github_pat_11ABCDEFG0123456789_abcdefghij", "pat [REDACTED:github_token]"],
  ["g AIzaSyA1234567890abcdefghijklmnopqrstuv", "g [REDACTED:google_api_key]"],
  ["slack xoxb-1234567890-abcdefghij", "slack [REDACTED:slack_token]"],
  ["stripe sk_live_abcdefghijklmnop1234", "stripe [REDACTED:stripe_key]"],
  ["Authorization: Bearer abcdef0123456789abcdef.xyz", "Authorization: Bearer [REDACTED:bearer_token]"],
  ["postgres://admin:s3cr3t!@db.example.com:5432/app", "postgres://admin:[REDACTED:url_password]@db.example.com:5432/app"],
  ["DB_PASSWORD=hunter2", "DB_PASSWORD=[REDACTED:password_assignment]"],
  ['{"password": "correct horse"}', '{"password": "[REDACTED:password_assignment]"}'],
  ["curl 'https://x.io/api?token=abc123def&x=1'", "curl 'https://x.io/api?token=[REDACTED:password_assignment]&x=1'"],
  ["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt [REDACTED:jwt]"],
  ["a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc==\n-----END RSA PRIVATE KEY-----\nb", "a\n[REDACTED:private_key]\nb"],
];

/** Negative cases: nothing may be redacted. */
const NEGATIVE = [
  "commit 4f1c9a2e7b3d5f60a8c1e2d3b4a5968778695a4b",
  "id 0199c2a4-7e1b-7d30-9f6a-3c5e8b1d2f47",
  "[image] data:image/png;base64,<omitted 2048 bytes>",
  "Please enter your password to continue.",
  "The password must be at least 8 characters; token limits apply.",
  "> Tokens: 1.2k sent, 300 received.",
  "max_tokens=4096 and token_count=12",
  "password = self.password",
  "token = get_token()",
  "secret=$SECRET_VALUE",
  'password: "<your password>"',
  "task-sk-learn is a risk-free skill",
  "contact dev@example.com for help",
];

for (const [input, expected] of POSITIVE) {
  test(`redacts: ${input.slice(0, 50)}`, () => {
    assert.equal(applySpans(input, findSecrets(input)), expected);
  });
}

for (const input of NEGATIVE) {
  test(`leaves alone: ${input.slice(0, 50)}`, () => {
    assert.deepEqual(findSecrets(input), []);
  });
}

test("e-mail addresses are redacted only when asked", () => {
  const text = "contact dev@example.com";
  assert.equal(applySpans(text, findSecrets(text, { emails: true })), "contact [REDACTED:email]");
});

test("fingerprints correlate equal secrets without revealing them", () => {
  const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123";
  const spans = findSecrets(`${key} and again ${key} and sk-proj-zzzzzzzzzzzzzzzzzzzzzzzzzzzzz`);
  assert.equal(spans.length, 3);
  assert.equal(spans[0]!.fingerprint, spans[1]!.fingerprint);
  assert.notEqual(spans[0]!.fingerprint, spans[2]!.fingerprint);
  assert.match(spans[0]!.fingerprint, /^[0-9a-f]{8}$/);
  assert.ok(!JSON.stringify(spans).includes("abcdefghij"));
});
