import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parseTrace } from "../../lib/trace/parse-trace";
import { sourceFromText } from "../../lib/trace/source";
import { DEFAULT_REDACTION_SETTINGS, getRedactionSettings, setRedactionSettings } from "../../server/settings/redaction-settings";
import type { BlobStore } from "../../server/storage/blob-store";
import { receiveUpload, type UploadOutcome } from "../../server/trace/import/receive-upload";
import { ArchiveError } from "../../lib/trace/archive/archive-limits";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

const OPENAI_KEY = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";
const BEARER = "eyZ0aGlzLWlzLWEtYmVhcmVyLXRva2VuLTk4NzY1NDMyMTA";
const PEM_BODY = ["MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK"];
const PEM = ["-----BEGIN RSA PRIVATE KEY-----", ...PEM_BODY, "-----END RSA PRIVATE KEY-----"].join("\n");
const SECRETS = [OPENAI_KEY, BEARER, ...PEM_BODY];

/** A pretty-printed Chat Completions array (a whole-document JSON format): one secret per message. */
function chatTrace(salt: string): string {
  return `${JSON.stringify(
    [
      { role: "system", content: `You are a deployment assistant (${salt}).` },
      { role: "user", content: `Call the API with ${OPENAI_KEY} please` },
      { role: "assistant", content: `curl -H "Authorization: Bearer ${BEARER}" https://api.example.com/v1` },
      { role: "user", content: `Here is the deploy key:\n${PEM}\nkeep it safe` },
      { role: "assistant", content: "Done: the key is installed." },
    ],
    null,
    2,
  )}\n`;
}

const upload = (t: TestDb, text: string | Uint8Array<ArrayBuffer>, fileName = "chat.json") =>
  receiveUpload({ db: t.db, store: t.store, body: new Blob([text]).stream(), fileName, userId: "", maxBytes: 1 << 20 });

const blobsIn = (t: TestDb) => {
  const root = join(t.dataDir, "blobs", "uploads");
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
  } catch {
    return [];
  }
};
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Everything the import wrote about an upload's sessions, as one string to search. */
async function storedRows(t: TestDb, uploadId: string): Promise<string> {
  const sessions = await t.db.traceSession.findMany({ where: { uploadId } });
  const ids = sessions.map((s) => s.id);
  const messages = await t.db.traceMessage.findMany({ where: { sessionId: { in: ids } } });
  const objects = await t.db.contextObjectRow.findMany({ where: { sessionId: { in: ids } } });
  const report = await t.db.uploadRedaction.findMany({ where: { uploadId } });
  return JSON.stringify({ sessions, messages, objects, report });
}

function imported(outcome: UploadOutcome) {
  assert.equal(outcome.status, "imported", JSON.stringify(outcome).slice(0, 400));
  if (outcome.status !== "imported" || !outcome.redaction) throw new Error("no redaction summary");
  return { ...outcome, redaction: outcome.redaction };
}

for (const engine of ENGINES) {
  describe(`upload redaction on ${engine}`, () => {
    let t: TestDb;
    before(async () => {
      t = await createTestDb(engine);
      process.env.TRACEFOLD_DATA_DIR = t.dataDir;
    });
    after(async () => {
      await t.close();
    });

    test("secrets are redacted before storing and parsing; the report locates each; no raw original by default", async () => {
      const original = chatTrace("a");
      const outcome = imported(await upload(t, original));
      const lines = original.split("\n");
      const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;
      assert.deepEqual(
        outcome.redaction.entries.map((r) => [r.kind, r.line]),
        [
          ["openai_key", lineOf(OPENAI_KEY)],
          ["bearer_token", lineOf(BEARER)],
          ["private_key", lineOf("BEGIN RSA")],
        ],
      );
      assert.equal(outcome.redaction.count, 3);
      assert.equal(outcome.redaction.rawKept, false);
      const first = outcome.redaction.entries[0]!;
      assert.equal(lines[first.line - 1]!.slice(first.start, first.end), OPENAI_KEY, "offsets point at the secret within its line");

      const row = await t.db.upload.findUniqueOrThrow({ where: { id: outcome.uploadId } });
      const stored = (await t.store.readBytes(row.storageKey)).toString("utf8");
      for (const secret of SECRETS) assert.ok(!stored.includes(secret), `stored bytes contain ${secret.slice(0, 12)}…`);
      const escapedPem = JSON.stringify(PEM).slice(1, -1);
      const expected = original
        .replace(OPENAI_KEY, "[REDACTED:openai_key]")
        .replace(BEARER, "[REDACTED:bearer_token]")
        .replace(escapedPem, "[REDACTED:private_key]");
      assert.equal(stored, expected, "everything but the secrets is byte-identical");
      assert.equal(row.sha256, sha256(stored), "the upload is the redacted file, under its own sha256");
      assert.equal(row.bytes, Buffer.byteLength(stored));

      const rows = await storedRows(t, outcome.uploadId);
      assert.ok(rows.includes("[REDACTED:openai_key]"));
      for (const secret of SECRETS) assert.ok(!rows.includes(secret), `the database holds ${secret.slice(0, 12)}…`);
      assert.deepEqual(blobsIn(t), [stored], "only the redacted file is kept");
      assert.equal((await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: outcome.uploadId } })).rawStorageKey, null);
    });

    test("the same file again is recognised as a duplicate and answers with the stored report", async () => {
      const again = await upload(t, chatTrace("a"), "again.json");
      assert.equal(again.status, "duplicate");
      assert.deepEqual(again.status === "duplicate" ? again.redaction?.entries.map((r) => r.kind) : [], ["openai_key", "bearer_token", "private_key"]);
    });

    test("with keepRawOriginals on, the raw original is kept beside the redacted file", async () => {
      await setRedactionSettings(t.db, { keepRawOriginals: true, redactEmails: false });
      try {
        const original = chatTrace("b");
        const outcome = imported(await upload(t, original));
        assert.equal(outcome.redaction.rawKept, true);
        const record = await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: outcome.uploadId } });
        assert.equal((await t.store.readBytes(record.rawStorageKey!)).toString("utf8"), original, "the raw original byte for byte");
        assert.equal(record.rawStorageKey, `uploads/${sha256(original).slice(0, 2)}/${sha256(original)}`);
      } finally {
        await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false });
      }
    });

    test("the same file uploaded twice at once keeps the raw original the winner's report refers to", async () => {
      await setRedactionSettings(t.db, { keepRawOriginals: true, redactEmails: false });
      try {
        // The loser stores the raw original first; the winner finds it stored and commits before the loser imports.
        const original = chatTrace("race");
        let winner: UploadOutcome | undefined;
        const racingStore: BlobStore = {
          ...t.store,
          putFile: async (path, kind) => {
            const put = await t.store.putFile(path, kind);
            winner ??= await upload(t, original, "winner.json");
            return put;
          },
        };
        const loser = await receiveUpload({
          db: t.db,
          store: racingStore,
          body: new Blob([original]).stream(),
          fileName: "loser.json",
          userId: "",
          maxBytes: 1 << 20,
        });
        const won = imported(winner!);
        assert.equal(loser.status, "duplicate");
        const record = await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: won.uploadId } });
        assert.equal((await t.store.readBytes(record.rawStorageKey!)).toString("utf8"), original, "the raw original survives the loser's clean-up");
      } finally {
        await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false });
      }
    });

    test("e-mail addresses are redacted only when an admin turns it on", async () => {
      const trace = (salt: string) =>
        JSON.stringify([
          { role: "user", content: `mail ops@example.com about ${salt}` },
          { role: "assistant", content: "ok" },
        ]);
      const off = imported(await upload(t, trace("off")));
      assert.equal(off.redaction.count, 0);
      await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: true });
      try {
        const on = imported(await upload(t, trace("on")));
        assert.deepEqual(
          on.redaction.entries.map((r) => [r.kind, r.line]),
          [["email", 1]],
        );
        assert.ok(!(await storedRows(t, on.uploadId)).includes("ops@example.com"));
      } finally {
        await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false });
      }
    });

    test("rules an admin switched off and allow-listed values are left in the stored file; the rest is still redacted", async () => {
      const TEST_KEY = "sk-test-fixture0000000000000000000";
      const trace = (salt: string) =>
        JSON.stringify([
          { role: "user", content: `use ${OPENAI_KEY} or the fixture key ${TEST_KEY} (${salt})` },
          { role: "assistant", content: `curl -H "Authorization: Bearer ${BEARER}"` },
        ]);
      await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false, disabledRules: ["bearer_token"], allowList: [TEST_KEY] });
      try {
        const outcome = imported(await upload(t, trace("rules")));
        assert.deepEqual(
          outcome.redaction.entries.map((r) => r.kind),
          ["openai_key"],
        );
        const row = await t.db.upload.findUniqueOrThrow({ where: { id: outcome.uploadId } });
        const stored = (await t.store.readBytes(row.storageKey)).toString("utf8");
        assert.ok(!stored.includes(OPENAI_KEY), "the real key is redacted");
        assert.ok(stored.includes(TEST_KEY) && stored.includes(BEARER), "the allowed value and the switched-off kind are kept");
      } finally {
        await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false });
      }
      const after = imported(await upload(t, trace("defaults")));
      assert.deepEqual(
        after.redaction.entries.map((r) => r.kind),
        ["openai_key", "openai_key", "bearer_token"],
        "back to every rule, nothing allowed",
      );
    });

    test("the settings are stored and read back; unreadable rows fall back to the defaults", async () => {
      const saved = await setRedactionSettings(t.db, {
        keepRawOriginals: true,
        redactEmails: true,
        disabledRules: ["jwt", "basic_auth"],
        allowList: ["demo-password", "/sk-test-[a-z0-9]+/"],
      });
      assert.deepEqual(await getRedactionSettings(t.db), saved);
      await t.db.setting.update({ where: { key: "redaction.allowList" }, data: { value: "not json" } });
      await t.db.setting.update({ where: { key: "redaction.disabledRules" }, data: { value: JSON.stringify(["jwt", "no_such_rule", "email"]) } });
      const read = await getRedactionSettings(t.db);
      assert.deepEqual([read.allowList, read.disabledRules], [[], ["jwt"]]);
      await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false });
      assert.deepEqual(await getRedactionSettings(t.db), DEFAULT_REDACTION_SETTINGS);
    });

    test("a file without secrets is stored byte-exact under the sha256 of what was uploaded (CRLF kept)", async () => {
      const text = `[\r\n  {"role": "user", "content": "plain ✓ text"},\r\n  {"role": "assistant", "content": "fine"}\r\n]`;
      const outcome = imported(await upload(t, text));
      assert.equal(outcome.redaction.count, 0);
      const row = await t.db.upload.findUniqueOrThrow({ where: { id: outcome.uploadId } });
      assert.equal(row.sha256, sha256(text));
      assert.equal((await t.store.readBytes(row.storageKey)).toString("utf8"), text);
    });

    test("line-based formats: a raw multi-line PEM key is redacted line by line and every message keeps its source line", async () => {
      const md = [
        "",
        "# aider chat started at 2025-05-01 10:00:00",
        "",
        "#### install this key",
        "",
        PEM,
        "",
        "Installed it.",
        "",
        "#### thanks",
        "",
        "You're welcome.",
        "",
      ].join("\n");
      const outcome = imported(await upload(t, md, "k.aider.chat.history.md"));
      assert.deepEqual(
        outcome.redaction.entries.map((r) => [r.kind, r.line]),
        [6, 7, 8, 9].map((line) => ["private_key", line]),
      );
      const original = await parseTrace(sourceFromText("k.aider.chat.history.md", md));
      const session = await t.db.traceSession.findFirstOrThrow({ where: { uploadId: outcome.uploadId } });
      const messages = await t.db.traceMessage.findMany({ where: { sessionId: session.id }, orderBy: { index: "asc" } });
      assert.deepEqual(
        messages.map((m) => m.sourceLine),
        original.sessions[0]!.messages.map((m) => m.source.line),
      );
      for (const secret of SECRETS) assert.ok(!(await storedRows(t, outcome.uploadId)).includes(secret));
    });

    test("a zip that is not an Inspect .eval log and a truncated gzip are refused before anything is read into the database", async () => {
      const before = await t.db.upload.count();
      const zip = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
      await assert.rejects(
        upload(t, zip, "traces.zip"),
        (e: unknown) => e instanceof ArchiveError && e.code !== "archive_too_large" && e.message.startsWith("traces.zip: "),
      );
      await assert.rejects(
        upload(t, Uint8Array.from([0x1f, 0x8b, 8, 0]), "t.jsonl.gz"),
        (e: unknown) => e instanceof ArchiveError && e.code === "archive_corrupt" && e.message.startsWith("t.jsonl.gz: "),
      );
      assert.equal(await t.db.upload.count(), before);
    });
  });
}
