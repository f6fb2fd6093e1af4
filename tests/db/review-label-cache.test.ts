import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { completionsFromLabels, currentLabels, manualClock, retractLabel, type LabelHistory } from "../../lib/review";
import type { Db } from "../../server/db/client";
import { createQueue } from "../../server/review/create-queue";
import { loadHistoryCached } from "../../server/review/label-cache";
import { labelBody, loadHistory } from "../../server/review/label-rows";
import { saveLabel } from "../../server/review/save-label";
import { createJudgedRun } from "../helpers/judged-run";
import { ENGINES, type TestDb } from "../helpers/test-db";

const REVIEWERS = Array.from({ length: 6 }, (_, i) => ({ id: `u-${i}`, email: `r${i}@example.test` }));

const sorted = (h: LabelHistory) => [...h].sort(([a], [b]) => (a < b ? -1 : 1));
const sortedCompletions = (c: ReadonlyMap<string, ReadonlySet<string>>) =>
  [...c].map(([k, v]) => [k, [...v].sort()] as const).sort(([a], [b]) => (a < b ? -1 : 1));

/** The db with every reviewLabelRow.findMany that reads ids only (the full catch-up read) counted. */
function countingFullReads(db: Db): { db: Db; fullReads: () => number } {
  let reads = 0;
  const rows = new Proxy(db.reviewLabelRow, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop !== "findMany" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
      return (args: { select?: Record<string, boolean> }) => {
        if (args.select && Object.keys(args.select).join() === "id") reads++;
        return (value as (a: unknown) => unknown).call(target, args);
      };
    },
  });
  const wrapped = new Proxy(db, {
    get(target, prop) {
      if (prop === "reviewLabelRow") return rows;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as Db;
  return { db: wrapped, fullReads: () => reads };
}

for (const engine of ENGINES) {
  describe(`review label cache on ${engine}`, () => {
    let t: TestDb;
    let runId: string;
    const clock = manualClock(Date.parse("2026-11-23T10:00:00.000Z"));
    before(async () => {
      ({ t, runId } = await createJudgedRun(engine, "label cache source"));
    });
    after(async () => t.close());

    async function assertSameAsFullRead(db: Db, queueId: string): Promise<void> {
      const cached = await loadHistoryCached(db, queueId);
      const full = await loadHistory(t.db, queueId);
      assert.deepEqual(sorted(cached.history), sorted(full));
      assert.deepEqual(sortedCompletions(cached.completions), sortedCompletions(completionsFromLabels(currentLabels(full))));
      assert.equal(cached.rows, await t.db.reviewLabelRow.count({ where: { queueId } }));
    }

    test("saves, revisions and retractions are picked up from the newest rows alone, without reading every id", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 6 });
      assert.ok(made.ok, JSON.stringify(made));
      const keys = (await t.db.reviewItem.findMany({ where: { queueId: made.queueId }, orderBy: { position: "asc" } })).map((i) => i.itemKey);
      const { db, fullReads } = countingFullReads(t.db);
      await assertSameAsFullRead(db, made.queueId);
      const before = fullReads();
      for (let i = 0; i < 40; i++) {
        const reviewer = REVIEWERS[i % REVIEWERS.length]!;
        clock.advance(1_000);
        const saved = await saveLabel(
          t.db,
          { queueId: made.queueId, itemKey: keys[i % keys.length]!, labelId: randomUUID(), version: 1, draft: { kind: "cut_review" } },
          reviewer,
          clock,
        );
        assert.ok(saved.ok, JSON.stringify(saved));
        if (i % 5 === 4) {
          clock.advance(1_000);
          const undone = await t.db.reviewLabelRow.findFirst({ where: { labelId: saved.label.labelId } });
          assert.ok(undone);
          const retracted = retractLabel(saved.label, clock);
          await t.db.reviewLabelRow.create({
            data: {
              queueId: made.queueId,
              itemKey: undone.itemKey,
              labelId: retracted.labelId,
              version: 2,
              kind: retracted.kind,
              reviewerId: reviewer.id,
              reviewer: reviewer.email,
              retracted: true,
              body: labelBody(retracted),
              createdAt: new Date(retracted.createdAt),
            },
          });
        }
        await assertSameAsFullRead(db, made.queueId);
      }
      assert.equal(fullReads(), before, "no request read every id of the queue");
    });

    test("rows the newest window misses (an import larger than it, a row saved with an older date) are caught up by a full read", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 6 });
      assert.ok(made.ok, JSON.stringify(made));
      const keys = (await t.db.reviewItem.findMany({ where: { queueId: made.queueId }, orderBy: { position: "asc" } })).map((i) => i.itemKey);
      const { db, fullReads } = countingFullReads(t.db);
      await assertSameAsFullRead(db, made.queueId);
      const row = (i: number, savedAt: Date) => {
        const label = {
          kind: "cut_review" as const,
          labelId: `bulk-${made.queueId}-${i}`,
          version: 1,
          supersedes: null,
          reviewer: REVIEWERS[i % 6]!.email,
          createdAt: new Date(clock.now()).toISOString(),
          ref: { runId, sessionId: "s", cut: i },
        };
        return {
          queueId: made.queueId,
          itemKey: keys[i % keys.length]!,
          labelId: label.labelId,
          version: 1,
          kind: label.kind,
          reviewerId: REVIEWERS[i % 6]!.id,
          reviewer: label.reviewer,
          body: labelBody(label),
          createdAt: new Date(label.createdAt),
          savedAt,
        };
      };
      await t.db.reviewLabelRow.createMany({ data: Array.from({ length: 150 }, (_, i) => row(i, new Date(clock.now() + i))) });
      await assertSameAsFullRead(db, made.queueId);
      assert.equal(fullReads(), 1, "150 new rows at once are more than the newest window: one full read");
      // A row that commits with a savedAt older than the 64 newest rows (a slow transaction, another server's clock).
      await t.db.reviewLabelRow.create({ data: row(999, new Date(clock.now() - 3_600_000)) });
      await assertSameAsFullRead(db, made.queueId);
      assert.equal(fullReads(), 2);
    });

    test("concurrent requests while labels arrive agree with a full read and never apply a row twice", async () => {
      const made = await createQueue(t.db, { runId, kind: "dependency", overlap: 6 });
      assert.ok(made.ok, JSON.stringify(made));
      const keys = (await t.db.reviewItem.findMany({ where: { queueId: made.queueId }, orderBy: { position: "asc" } })).map((i) => i.itemKey);
      const saves = Array.from({ length: 30 }, (_, i) =>
        saveLabel(
          t.db,
          { queueId: made.queueId, itemKey: keys[i % keys.length]!, labelId: randomUUID(), version: 1, draft: { kind: "cut_review" } },
          REVIEWERS[i % 6]!,
          clock,
        ),
      );
      const loads = Array.from({ length: 30 }, () => loadHistoryCached(t.db, made.queueId));
      const outcomes = await Promise.all([...saves, ...loads]);
      assert.equal(outcomes.length, 60);
      await assertSameAsFullRead(t.db, made.queueId);
    });
  });
}
