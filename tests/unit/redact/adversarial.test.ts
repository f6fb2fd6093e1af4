import assert from "node:assert/strict";
import { test } from "node:test";
import { findSecrets } from "../../../lib/redact";

/** Inputs built to make backtracking regexes go quadratic; each 1 MB input must scan in < 2 s (a scan of a megabyte takes 30–900 ms here). */
const MB = 1 << 20;
const ADVERSARIAL: Record<string, string> = {
  "one long token run": "a".repeat(MB),
  "repeated sk- prefixes": "sk-".repeat(MB / 3),
  "repeated eyJ segments": "eyJ".repeat(MB / 3),
  "jwt-like runs without dots": "eyJaaaaa.".repeat(MB / 9),
  "url schemes without @": "a://b:".repeat(MB / 6),
  "password= with unclosed quotes": 'password="'.repeat(MB / 10),
  "escaped quotes after keys": 'token=\\\\\\"'.repeat(MB / 10),
  "keys with long bare values": "api_key=" + "a1".repeat(MB / 2),
  "colon-separated userinfo without @": "a://b:" + "c:".repeat(MB / 2),
  "escapes before e-mail-like parts": "\\n".repeat(MB / 2) + "a@b",
  "bearer with short tokens": "Bearer abc ".repeat(MB / 11),
  "PEM begin without end": "-----BEGIN RSA PRIVATE KEY-----\n".repeat(MB / 32),
  "e-mail-like local parts": "a.".repeat(MB / 2) + "@",
  "dotted domains": "x@" + "a.".repeat(MB / 2),
};

for (const [name, input] of Object.entries(ADVERSARIAL)) {
  test(`linear time: ${name}`, () => {
    const started = performance.now();
    findSecrets(input, { emails: true });
    const ms = performance.now() - started;
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms`);
  });
}
