import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runImport } from "../../cli/commands/import";
import { seedDemoTraces } from "../../server/demo/seed-demo-traces";
import { setRedactionSettings } from "../../server/settings/redaction-settings";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";

const OPENAI_KEY = "sk-proj-Qz8vN3kT5mW1xR7yL2pA9dF4gH6jK0cB";
const BEARER = "eyZ0aGlzLWlzLWEtYmVhcmVyLXRva2VuLTk4NzY1NDMyMTA";

/** A Chat Completions array with two secrets on two lines; `salt` makes each file's bytes unique. */
function chatTrace(salt: string): string {
  return `${JSON.stringify(
    [
      { role: "system", content: `You deploy things (${salt}).` },
      { role: "user", content: `Use the key ${OPENAI_KEY} for the API` },
      { role: "assistant", content: `curl -H "Authorization: Bearer ${BEARER}" https://api.example.com` },
    ],
    null,
    2,
  )}\n`;
}

/** Runs `tracefold import` with console.log captured. */
async function cli(argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = console.log;
  const write = process.stdout.write.bind(process.stdout);
  console.log = (...args: unknown[]) => void lines.push(args.join(" "));
  // Only the command's own text: the test runner writes its serialized reports as bytes.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
    typeof chunk === "string" ? (lines.push(chunk.trimEnd()), true) : write(chunk, ...rest)) as typeof process.stdout.write;
  try {
    return { code: await runImport(argv), out: lines.join("\n") };
  } finally {
    console.log = log;
    process.stdout.write = write;
  }
}

/** Every stored message's text for an upload, as one string. */
async function storedText(t: TestDb, uploadId: string): Promise<string> {
  const sessions = await t.db.traceSession.findMany({ where: { uploadId }, select: { id: true } });
  const messages = await t.db.traceMessage.findMany({ where: { sessionId: { in: sessions.map((s) => s.id) } } });
  return JSON.stringify(messages);
}

for (const engine of ENGINES) {
  describe(`tracefold import and the demo seed redact on ${engine}`, () => {
    let t: TestDb;
    let dir: string;
    const saved = { url: process.env.DATABASE_URL, data: process.env.TRACEFOLD_DATA_DIR };
    before(async () => {
      t = await createTestDb(engine);
      process.env.DATABASE_URL = t.url;
      process.env.TRACEFOLD_DATA_DIR = t.dataDir;
      dir = mkdtempSync(join(t.dataDir, "in-"));
    });
    after(async () => {
      process.env.DATABASE_URL = saved.url;
      process.env.TRACEFOLD_DATA_DIR = saved.data;
      await t.close();
    });

    test("by default secrets are redacted before storing, and each file's line summarises the report", async () => {
      const file = join(dir, "chat-default.json");
      writeFileSync(file, chatTrace("default"));
      const { code, out } = await cli([file]);
      assert.equal(code, 0, out);
      assert.match(out, /^imported +.*chat-default\.json: 1 sessions \(openai_chat\); 2 secrets redacted \(1 bearer_token, 1 openai_key\) on lines 8, 12$/m);
      const upload = await t.db.upload.findFirstOrThrow({ where: { fileName: "chat-default.json" } });
      const text = await storedText(t, upload.id);
      assert.ok(!text.includes(OPENAI_KEY) && !text.includes(BEARER), "a secret was stored");
      assert.match(text, /\[REDACTED:openai_key\]/);
      const report = await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: upload.id } });
      assert.equal(report.count, 2);
      assert.ok(!report.report.includes(OPENAI_KEY));
      // Importing the same file again is recognised as a duplicate of the redacted bytes.
      assert.match((await cli([file])).out, /^duplicate +.*2 secrets redacted/m);
    });

    test("--json gives the counts per kind; --no-redact stores the bytes as they are and says so", async () => {
      const redacted = join(dir, "chat-json.json");
      writeFileSync(redacted, chatTrace("json"));
      const json = JSON.parse((await cli([redacted, "--json"])).out) as { files: { status: string; redaction: unknown }[] };
      assert.deepEqual(
        json.files.map((f) => [f.status, f.redaction]),
        [["imported", { count: 2, kinds: { bearer_token: 1, openai_key: 1 } }]],
      );

      const raw = join(dir, "chat-raw.json");
      writeFileSync(raw, chatTrace("raw"));
      const { code, out } = await cli([raw, "--no-redact"]);
      assert.equal(code, 0);
      assert.match(out, /chat-raw\.json: 1 sessions \(openai_chat\); not redacted \(--no-redact\)$/m);
      const upload = await t.db.upload.findFirstOrThrow({ where: { fileName: "chat-raw.json" } });
      assert.ok((await storedText(t, upload.id)).includes(OPENAI_KEY));
      assert.equal(await t.db.uploadRedaction.count({ where: { uploadId: upload.id } }), 0);
      const rawJson = JSON.parse((await cli([raw, "--no-redact", "--json"])).out) as { files: { status: string; redaction: unknown }[] };
      assert.deepEqual(
        rawJson.files.map((f) => [f.status, f.redaction]),
        [["duplicate", null]],
      );
    });

    test("the demo seed imports its files through the same redaction", async () => {
      const shared = mkdtempSync(join(t.dataDir, "shared-"));
      writeFileSync(join(shared, "leaky.json"), chatTrace("demo"));
      const reports = await seedDemoTraces(t.db, t.store, { dataDir: join(t.dataDir, "seed"), sharedTraces: shared });
      assert.deepEqual(
        reports.map((r) => r.status),
        ["imported", "imported"],
      );
      const upload = await t.db.upload.findFirstOrThrow({ where: { fileName: "leaky.json" } });
      assert.ok(!(await storedText(t, upload.id)).includes(OPENAI_KEY));
      assert.equal((await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: upload.id } })).count, 2);
      // The generated suite has no secrets: an empty report, still recorded.
      const suite = await t.db.upload.findFirstOrThrow({ where: { fileName: { startsWith: "scenarios-" } } });
      assert.equal((await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: suite.id } })).count, 0);
    });

    test("tracefold import and the demo seed apply the admin's switches and allow-list", async () => {
      await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false, disabledRules: ["bearer_token"], allowList: [OPENAI_KEY] });
      try {
        const file = join(dir, "chat-settings.json");
        writeFileSync(file, chatTrace("settings"));
        const { code, out } = await cli([file]);
        assert.equal(code, 0, out);
        assert.match(out, /chat-settings\.json: 1 sessions \(openai_chat\); no secrets found$/m);
        const upload = await t.db.upload.findFirstOrThrow({ where: { fileName: "chat-settings.json" } });
        assert.ok((await storedText(t, upload.id)).includes(OPENAI_KEY));

        const shared = mkdtempSync(join(t.dataDir, "shared-settings-"));
        writeFileSync(join(shared, "seeded.json"), chatTrace("seed-settings"));
        await seedDemoTraces(t.db, t.store, { dataDir: join(t.dataDir, "seed-settings"), sharedTraces: shared });
        const seeded = await t.db.upload.findFirstOrThrow({ where: { fileName: "seeded.json" } });
        assert.equal((await t.db.uploadRedaction.findUniqueOrThrow({ where: { uploadId: seeded.id } })).count, 0);
      } finally {
        await setRedactionSettings(t.db, { keepRawOriginals: false, redactEmails: false });
      }
    });
  });
}
