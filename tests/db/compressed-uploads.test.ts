import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import { strToU8, zipSync } from "fflate";
import { runImport } from "../../cli/commands/import";
import { ArchiveError } from "../../lib/trace/archive/archive-limits";
import { parseTrace } from "../../lib/trace/parse-trace";
import { sourceFromText } from "../../lib/trace/source";
import { setRedactionSettings } from "../../server/settings/redaction-settings";
import { receiveUpload } from "../../server/trace/import/receive-upload";
import { createTestDb, type TestDb } from "../helpers/test-db";
import { TRACES_NEW_DIR } from "../helpers/traces";
import { NEW_TRACE_COUNTS } from "../helpers/traces-new";

/**
 * Compressed uploads (issue 15 item 5): a real Inspect `.eval` (a zip) and gzip'd JSON go through
 * the same upload path as plain files, the raw original kept is the compressed bytes, and a zip
 * bomb is refused by the expansion limits with nothing written. SQLite only: expansion happens
 * before the database is touched, so the engine does not change what is tested.
 */
const upload = (t: TestDb, bytes: Uint8Array, fileName: string) =>
  receiveUpload({ db: t.db, store: t.store, body: new Blob([new Uint8Array(bytes)]).stream(), fileName, userId: "", maxBytes: 4 << 20 });

const KEY = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";
const chat = JSON.stringify(
  [
    { role: "user", content: `use ${KEY}` },
    { role: "assistant", content: "done" },
  ],
  null,
  2,
);

const blobFiles = (t: TestDb) => {
  try {
    return readdirSync(join(t.dataDir, "blobs"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
};

describe("compressed uploads on sqlite", () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb("sqlite");
    process.env.TRACEFOLD_DATA_DIR = t.dataDir;
  });
  const savedUrl = process.env.DATABASE_URL;
  after(async () => {
    delete process.env.TRACEFOLD_MAX_UPLOAD_MB;
    if (savedUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = savedUrl;
    await t.close();
  });

  test("a real Inspect .eval log imports one session per sample", async () => {
    const path = Object.keys(NEW_TRACE_COUNTS).find((p) => p.endsWith(".eval"))!;
    const outcome = await upload(t, readFileSync(resolve(TRACES_NEW_DIR, path)), path.split("/").pop()!);
    assert.equal(outcome.status, "imported", JSON.stringify(outcome).slice(0, 400));
    if (outcome.status !== "imported") return;
    assert.equal(outcome.format, "inspect_eval_log");
    assert.equal(outcome.sessions.length, NEW_TRACE_COUNTS[path]!.sessions);
    const messages = await t.db.traceMessage.count({ where: { session: { uploadId: outcome.uploadId } } });
    assert.equal(messages, NEW_TRACE_COUNTS[path]!.messages);
  });

  test("gzip round trip: a gzip'd trace imports as the plain file does, and the raw original kept is the compressed bytes", async () => {
    await setRedactionSettings(t.db, { keepRawOriginals: true, redactEmails: false });
    try {
      const gz = gzipSync(chat);
      const outcome = await upload(t, gz, "chat.json.gz");
      assert.equal(outcome.status, "imported", JSON.stringify(outcome).slice(0, 400));
      if (outcome.status !== "imported") return;
      const plain = await parseTrace(sourceFromText("chat.json", chat));
      assert.equal(outcome.format, plain.format);
      const stored = await t.db.traceMessage.findMany({ where: { session: { uploadId: outcome.uploadId } }, orderBy: { index: "asc" } });
      assert.deepEqual(
        stored.map((m) => m.role),
        plain.sessions[0]!.messages.map((m) => m.role),
      );
      assert.ok(!JSON.stringify(stored).includes(KEY), "the expanded text is redacted before storing");
      const record = await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: outcome.uploadId } });
      assert.deepEqual(new Uint8Array(await t.store.readBytes(record.rawStorageKey!)), new Uint8Array(gz));
    } finally {
      await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false });
    }
  });

  test("a zip bomb and a gzip bomb are refused with the file and the limit named, and nothing is written", async () => {
    process.env.TRACEFOLD_MAX_UPLOAD_MB = "1";
    try {
      const [uploads, blobs] = [await t.db.upload.count(), blobFiles(t)];
      const padding = " ".repeat(3 << 20);
      const bomb = zipSync({
        "header.json": strToU8(JSON.stringify({ version: 2, eval: { task: "x" } })),
        "samples/1_epoch_1.json": strToU8(`{"id": 1, "messages": []${padding}}`),
      });
      assert.ok(bomb.length < 64 * 1024, "the bomb is small compressed");
      await assert.rejects(
        upload(t, bomb, "bomb.eval"),
        (e: unknown) => e instanceof ArchiveError && e.code === "archive_too_large" && /^bomb\.eval: .*1 MB/.test(e.message),
      );
      await assert.rejects(
        upload(t, gzipSync(`[${padding}]`), "bomb.json.gz"),
        (e: unknown) => e instanceof ArchiveError && e.code === "archive_too_large" && /^bomb\.json\.gz: .*1 MB/.test(e.message),
      );
      assert.equal(await t.db.upload.count(), uploads);
      assert.equal(blobFiles(t), blobs);
    } finally {
      delete process.env.TRACEFOLD_MAX_UPLOAD_MB;
    }
  });

  test("tracefold import of a directory: a .json.gz and an .eval are picked up and import; a bomb fails on its own line", async () => {
    process.env.DATABASE_URL = t.url;
    const dir = mkdtempSync(join(t.dataDir, "cli-"));
    const evalPath = Object.keys(NEW_TRACE_COUNTS).find((p) => p.endsWith(".eval"))!;
    writeFileSync(join(dir, "a.eval"), readFileSync(resolve(TRACES_NEW_DIR, evalPath)));
    writeFileSync(join(dir, "b.json.gz"), gzipSync(chat.replace("done", "done again")));
    writeFileSync(join(dir, "c.jsonl.gz"), gzipSync(`[${" ".repeat(3 << 20)}]`));
    process.env.TRACEFOLD_MAX_UPLOAD_MB = "1";
    const log = console.log;
    const lines: string[] = [];
    console.log = (...args: unknown[]) => void lines.push(args.join(" "));
    try {
      assert.equal(await runImport([dir]), 1);
    } finally {
      console.log = log;
      delete process.env.TRACEFOLD_MAX_UPLOAD_MB;
    }
    assert.match(
      lines.find((l) => l.includes("a.eval"))!,
      /^(imported|duplicate) .*: 10 sessions \(inspect_eval_log\)/,
    );
    assert.match(
      lines.find((l) => l.includes("b.json.gz"))!,
      /^imported .*: 1 sessions \(openai_chat\)/,
    );
    assert.match(lines.join("\n"), /failed +\S*c\.jsonl\.gz[\s\S]*c\.jsonl\.gz: expands past 1 MB/);
  });
});
