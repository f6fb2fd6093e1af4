import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { calibrateJudge } from "../../lib/evaluation/calibration/calibrate-judge";
import { parseGold } from "../../lib/evaluation/calibration/gold";
import { manualClock } from "../../lib/review";
import { exportGoldQueue } from "../../server/review/export-gold";
import { importGoldQueue } from "../../server/review/import-gold";
import { getItemView } from "../../server/review/item-view";
import { openNextItem } from "../../server/review/next-item";
import { getQueueAgreement } from "../../server/review/queue-agreement";
import { saveLabel } from "../../server/review/save-label";
import { loadAnalyzedSession } from "../../server/trace/session/load-analyzed-session";
import { importTraceFile } from "../../server/trace/import/import-trace-file";
import { createTestDb, ENGINES, type TestDb } from "../helpers/test-db";
import { TRACES_DIR } from "../helpers/traces";

/** A small real trace with 18 gold units in the repo's gold set (no_impact, restorable and impact). */
const TRACE = "mini_swe_agent_traj/SWE-agent__mini-swe-agent/output/deepseek_reasoner_dev/pvlib__pvlib-python-1707/pvlib__pvlib-python-1707.traj.json";
const GOLD_LINES = readFileSync(resolve(__dirname, "../../gold/judge-gold.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.includes(`"path":"${TRACE}"`));
const GOLD = `${GOLD_LINES.join("\n")}\n`;
const BIN = resolve(__dirname, "../../cli/bin.mjs");
const ANN = { id: "u-ann", email: "ann@example.test" };
const BOB = { id: "u-bob", email: "bob@example.test" };

/** Issue 16 item 6: the gold set imported as a calibration queue, labelled blind, exported back, and the judge measured against it. */
for (const engine of ENGINES) {
  describe(`calibration queues on ${engine}`, () => {
    let t: TestDb;
    const clock = manualClock(Date.parse("2026-11-26T10:00:00.000Z"));
    before(async () => {
      t = await createTestDb(engine);
    });
    after(async () => t.close());
    const counts = async () => ({ queues: await t.db.reviewQueue.count(), items: await t.db.reviewItem.count(), labels: await t.db.reviewLabelRow.count() });

    test("a unit whose trace is not in the studio is refused with the file to upload, and nothing is written", async () => {
      assert.equal(GOLD_LINES.length, 18);
      const outcome = await importGoldQueue(t.db, GOLD);
      assert.ok(!outcome.ok);
      assert.equal(outcome.errors.length, 18);
      assert.deepEqual(outcome.errors[0], {
        line: 1,
        field: "unit.trace",
        expected: "a trace file imported into the studio",
        message: `trace ${TRACE} (sha256 ${JSON.parse(GOLD_LINES[0]!).unit.trace.sha256.slice(0, 12)}…) is not in the studio: upload that file on Traces, then import the gold file again`,
      });
      assert.deepEqual(await counts(), { queues: 0, items: 0, labels: 0 });
    });

    test("a bad line anywhere imports nothing, and every problem says line, field and what was expected", async () => {
      assert.equal((await importTraceFile({ db: t.db, store: t.store, path: join(TRACES_DIR, TRACE) })).status, "imported");
      const lines = [...GOLD_LINES];
      const third = JSON.parse(lines[2]!);
      third.label.verdict = "maybe";
      lines[2] = JSON.stringify(third);
      const fifth = JSON.parse(lines[4]!);
      fifth.label.ref.cut += 1;
      lines[4] = JSON.stringify(fifth);
      lines[6] = "{not json";
      const outcome = await importGoldQueue(t.db, lines.join("\n"));
      assert.ok(!outcome.ok);
      assert.deepEqual(
        outcome.errors.map((e) => [e.line, e.field, e.expected]),
        [
          [3, "label.verdict", "one of no_impact, restorable, impact"],
          [5, "label.ref.cut", `the unit's cut ${fifth.unit.cut}`],
          [7, "(line)", "one JSON object"],
        ],
      );
      assert.deepEqual(await counts(), { queues: 0, items: 0, labels: 0 });
    });

    let queueId = "";
    test("a good file becomes a calibration queue: one item per unit (matched to its stored session), the gold labels as label versions", async () => {
      const outcome = await importGoldQueue(t.db, GOLD, { createdById: ANN.id });
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.deepEqual({ items: outcome.items, labels: outcome.labels, duplicate: outcome.duplicate }, { items: 18, labels: 18, duplicate: false });
      queueId = outcome.queueId;
      const queue = await t.db.reviewQueue.findUniqueOrThrow({ where: { id: queueId } });
      assert.deepEqual({ kind: queue.kind, runId: queue.runId, overlap: queue.overlap }, { kind: "calibration", runId: null, overlap: 2 });
      const session = await t.db.traceSession.findFirstOrThrow({ where: { upload: { fileName: { endsWith: ".traj.json" } } } });
      const items = await t.db.reviewItem.findMany({ where: { queueId }, orderBy: { position: "asc" } });
      assert.deepEqual(new Set(items.map((i) => i.sessionId)), new Set([session.id]));
      assert.deepEqual(
        items.map((i) => JSON.parse(i.payload).unitId),
        GOLD_LINES.map((l) => JSON.parse(l).unit.id),
      );
      const reviewers = new Set((await t.db.reviewLabelRow.findMany({ where: { queueId } })).map((r) => r.reviewer));
      assert.ok(
        [...reviewers].every((r) => r.startsWith("gold:")),
        [...reviewers].join(),
      );
    });

    test("the same file again is recognised (nothing written); another file with labels already stored is refused whole", async () => {
      const before = await counts();
      const again = await importGoldQueue(t.db, GOLD);
      assert.deepEqual(again, { ok: true, queueId, items: 18, labels: 18, duplicate: true });
      const overlapping = await importGoldQueue(t.db, `${GOLD_LINES.slice(0, 2).join("\n")}\n`);
      assert.ok(!overlapping.ok);
      assert.deepEqual(
        overlapping.errors.map((e) => [e.line, e.field]),
        [
          [1, "label.labelId"],
          [2, "label.labelId"],
        ],
      );
      assert.match(overlapping.errors[0]!.message, new RegExp(`is already stored \\(queue ${queueId}\\)`));
      assert.deepEqual(await counts(), before);
    });

    test("export writes the gold file back byte for byte", async () => {
      assert.equal(await exportGoldQueue(t.db, queueId), GOLD);
      assert.deepEqual(parseGold((await exportGoldQueue(t.db, queueId))!).lines, parseGold(GOLD).lines);
    });

    test("the CLI imports and exports the same way (tracefold review import-gold / export-gold)", () => {
      const tracefold = (args: string[]) => {
        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: t.url, TRACEFOLD_DATA_DIR: t.dataDir };
        for (const key of Object.keys(env)) if (key.startsWith("TRACEFOLD_") && key !== "TRACEFOLD_DATA_DIR") delete env[key];
        return spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", env });
      };
      const file = join(t.dataDir, "gold.jsonl");
      writeFileSync(file, GOLD);
      const again = tracefold(["review", "import-gold", file, "--json"]);
      assert.equal(again.status, 0, again.stderr);
      assert.deepEqual(JSON.parse(again.stdout), { ok: true, queueId, items: 18, labels: 18, duplicate: true });
      const exported = tracefold(["review", "export-gold", queueId]);
      assert.equal(exported.status, 0, exported.stderr);
      assert.equal(exported.stdout, GOLD);
      const elsewhere = join(t.dataDir, "other.jsonl");
      writeFileSync(elsewhere, readFileSync(resolve(__dirname, "../fixtures/gold-small.jsonl")));
      const refused = tracefold(["review", "import-gold", elsewhere]);
      assert.equal(refused.status, 1);
      assert.match(
        refused.stderr,
        /refused .*other\.jsonl: 3 problems in the gold file; nothing was imported\n {4}line 1 unit\.trace: trace claude_code_jsonl\/.* is not in the studio/,
      );
    });

    test("a reviewer labels a view blind; the queue measures the judge against its labels with lib/evaluation/calibration", async () => {
      const opened = await openNextItem(t.db, queueId, ANN.email, clock);
      assert.ok(opened.ok && opened.item?.queue === "view_verdict");
      const item = opened.item;
      const view = await getItemView(t.db, queueId, null, item, ANN.email);
      assert.equal(view?.queue, "view_verdict");
      assert.ok(view.queue === "view_verdict" && view.view.length > 0 && view.future.length > 0);
      // Blind: nothing about the policy, its budget or its size reaches the screen.
      for (const key of ["policy", "budget", "tokensBefore", "tokensAfter", "params"]) assert.ok(!(key in view), key);
      assert.ok(!JSON.stringify(view).includes(item.policy === "none" ? "\u0000" : `"${item.policy}"`));

      const gold = parseGold(GOLD).lines.find((l) => l.unit.id === item.unitId)!.label;
      const bogus = await saveLabel(
        t.db,
        {
          queueId,
          itemKey: item.id,
          labelId: "ann-calibration-0",
          version: 1,
          draft: { kind: "view_verdict", verdict: "restorable", restores: ["0123456789ab"] },
        },
        ANN,
        clock,
      );
      assert.ok(!bogus.ok && bogus.code === "invalid_input" && /names no sidecar of this view/.test(bogus.message), JSON.stringify(bogus));
      const draft = {
        kind: "view_verdict",
        verdict: gold.verdict,
        ...(gold.lost ? { lost: gold.lost } : {}),
        ...(gold.restores ? { restores: gold.restores } : {}),
      };
      const saved = await saveLabel(t.db, { queueId, itemKey: item.id, labelId: "ann-calibration-1", version: 1, draft }, ANN, clock);
      assert.ok(saved.ok, JSON.stringify(saved));
      assert.deepEqual(saved.label.kind === "view_verdict" && [saved.label.policy, saved.label.viewDigest, saved.label.reviewer], [
        item.policy,
        item.viewDigest,
        ANN.email,
      ]);

      // The queue's figures are lib/evaluation/calibration's over the same views and the same verdicts.
      const session = (await loadAnalyzedSession(t.db, (await t.db.reviewItem.findFirstOrThrow({ where: { queueId } })).sessionId))!;
      const expected = calibrateJudge(parseGold(GOLD).lines, () => ({
        session: session.session,
        index: session.index,
        countTokens: (s) => session.tokenizer.count(s),
      }));
      const agreement = (await getQueueAgreement(t.db, queueId, clock))!;
      const c = agreement.judgeCalibration!;
      assert.deepEqual(
        [c.units, c.accuracy, c.kappa, c.matrix, c.disagreements, c.stale],
        [expected.units, expected.accuracy, expected.kappa, expected.matrix, expected.disagreements, expected.stale],
      );
      assert.ok(c.units > 0);
      assert.equal(c.units + c.stale.length, 18);
      assert.deepEqual([c.split, c.unlabelled], [0, 0]);
      // One item has two labels (gold and Ann's, agreeing): the labellers' agreement is measured on it.
      assert.equal(agreement.reviewers.units, 1);
      assert.equal(agreement.reviewers.percent.rate, 1);

      // A second person who disagrees on another item ties it with its gold label: left out and counted.
      const next = await openNextItem(t.db, queueId, BOB.email, clock);
      assert.ok(next.ok && next.item?.queue === "view_verdict");
      const other = parseGold(GOLD).lines.find((l) => l.unit.id === (next.item as { unitId: string }).unitId)!.label;
      const differs =
        other.verdict === "impact" ? { verdict: "no_impact" } : { verdict: "impact", lost: [{ value: "something", category: "evidence_detail" }] };
      assert.ok(
        (
          await saveLabel(
            t.db,
            { queueId, itemKey: next.item.id, labelId: "bob-calibration-1", version: 1, draft: { kind: "view_verdict", ...differs } },
            BOB,
            clock,
          )
        ).ok,
      );
      const split = (await getQueueAgreement(t.db, queueId, clock))!.judgeCalibration!;
      assert.deepEqual(
        [split.split, split.units],
        [1, expected.units - (expected.stale.some((s) => s.unit === (next.item as { unitId: string }).unitId) ? 0 : 1)],
      );

      // The export now holds the people's labels beside the gold ones, each with its unit.
      const exported = parseGold((await exportGoldQueue(t.db, queueId))!).lines;
      assert.equal(exported.length, 20);
      assert.deepEqual(
        exported.filter((l) => !l.label.reviewer.startsWith("gold:")).map((l) => [l.unit.id, l.label.reviewer]),
        [
          [item.unitId, ANN.email],
          [(next.item as { unitId: string }).unitId, BOB.email],
        ].sort((a, b) => GOLD_LINES.findIndex((l) => l.includes(a[0]!)) - GOLD_LINES.findIndex((l) => l.includes(b[0]!))),
      );
    });
  });
}
