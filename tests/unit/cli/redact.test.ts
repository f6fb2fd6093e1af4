import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { redactOptionsOf, DEFAULT_RULES } from "../../../lib/redact";
import { redactUploadFile } from "../../../server/trace/import/redact-upload-file";

const BIN = resolve(__dirname, "../../../cli/bin.mjs");
const KEY = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";

function tracefold(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A directory with a trace holding secrets (and the false positives), and a clean one. */
function traces(): { dir: string; secrets: string; clean: string } {
  const dir = mkdtempSync(join(tmpdir(), "tracefold-redact-cli-"));
  const secrets = join(dir, "a-secrets.jsonl");
  const clean = join(dir, "b-clean.jsonl");
  writeFileSync(
    secrets,
    [
      JSON.stringify({ role: "user", content: `use ${KEY} and mail dev@example.com` }),
      JSON.stringify({ role: "tool", content: '{"url":"https://relaygpu.com","logo":{"@type":"ImageObject"}}' }),
      JSON.stringify({ role: "tool", content: "    token = Base.url_encode64(:crypto.strong_rand_bytes(24), padding: false)" }),
      JSON.stringify({ role: "assistant", content: "DB_PASSWORD=hunter2 and postgres://app:s3cr3t!@db.internal/app" }),
    ].join("\n"),
  );
  writeFileSync(clean, `${JSON.stringify({ role: "user", content: "nothing secret here" })}\n`);
  return { dir, secrets, clean };
}

test("redact --dry-run --json prints one object with kind, line and fingerprint per finding, the same as an upload's report", async () => {
  const { dir, secrets, clean } = traces();
  const run = tracefold("redact", dir, "--dry-run", "--json");
  assert.equal(run.code, 1, run.stderr);
  const out = JSON.parse(run.stdout) as { files: { path: string; findings: Record<string, unknown>[] }[] };
  assert.deepEqual(
    out.files.map((f) => f.path),
    [secrets, clean],
  );
  for (const file of out.files) {
    assert.deepEqual(Object.keys(file).sort(), ["findings", "path"]);
    for (const finding of file.findings) assert.deepEqual(Object.keys(finding).sort(), ["fingerprint", "kind", "line"]);
  }
  assert.deepEqual(
    out.files[0]!.findings.map((f) => [f.line, f.kind]),
    [
      [1, "openai_key"],
      [4, "password_assignment"],
      [4, "url_password"],
    ],
  );
  assert.deepEqual(out.files[1]!.findings, []);
  const report = await redactUploadFile(secrets, join(dir, "redacted-copy"), redactOptionsOf(DEFAULT_RULES));
  assert.deepEqual(
    out.files[0]!.findings,
    report.map(({ kind, line, fingerprint }) => ({ kind, line, fingerprint })),
  );
  assert.ok(!run.stdout.includes("hunter2") && !run.stdout.includes(KEY.slice(0, 10)), "never a secret");
});

test("a clean file exits 0; the human table lists line, kind and fingerprint", () => {
  const { secrets, clean } = traces();
  assert.equal(tracefold("redact", clean, "--dry-run").code, 0);
  const run = tracefold("redact", secrets, "--dry-run");
  assert.equal(run.code, 1);
  assert.match(run.stdout, /found .*a-secrets\.jsonl: 3 secrets/);
  assert.match(run.stdout, /\n +1 {2}openai_key +[0-9a-f]{8}\n/);
  assert.match(run.stdout, /3 secrets would be redacted in 1 of 1 files \(dry run: nothing changed\)/);
});

test("--emails, --disable and --allow mirror the admin's settings", () => {
  const { secrets } = traces();
  const kinds = (...flags: string[]) =>
    (JSON.parse(tracefold("redact", secrets, "--dry-run", "--json", ...flags).stdout) as { files: { findings: { kind: string }[] }[] }).files[0]!.findings.map(
      (f) => f.kind,
    );
  assert.deepEqual(kinds("--emails"), ["openai_key", "email", "password_assignment", "url_password"]);
  assert.deepEqual(kinds("--disable", "url_password,password_assignment"), ["openai_key"]);
  assert.deepEqual(kinds("--allow", KEY, "--allow", "/s3cr3t.*/"), ["password_assignment"]);
});

test("without --dry-run, with an unknown kind or a bad --allow: a usage error (exit 2) that says why", () => {
  const { secrets } = traces();
  const noDryRun = tracefold("redact", secrets);
  assert.equal(noDryRun.code, 2);
  assert.match(noDryRun.stderr, /in-place redaction is not offered: add --dry-run/);
  assert.equal(noDryRun.stdout, "");
  const badKind = tracefold("redact", secrets, "--dry-run", "--disable", "passwords");
  assert.equal(badKind.code, 2);
  assert.match(badKind.stderr, /unknown --disable passwords; expected one of private_key, /);
  const badAllow = tracefold("redact", secrets, "--dry-run", "--allow", "/.*/");
  assert.equal(badAllow.code, 2);
  assert.match(badAllow.stderr, /--allow #1 matches any value/);
});
