import assert from "node:assert/strict";
import { test } from "node:test";
import { OtlpRebuildScheduler } from "../../../../server/ingest/otlp/otlp-rebuild-scheduler";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a key scheduled by every batch is rebuilt a bounded number of times, and once more after its last batch", async () => {
  const starts: number[] = [];
  const scheduler = new OtlpRebuildScheduler({
    rebuild: async () => {
      starts.push(performance.now());
      await sleep(10);
    },
    intervalMs: () => 30,
  });
  let lastSchedule = 0;
  const firstSchedule = performance.now();
  for (let i = 0; i < 100; i++) {
    scheduler.schedule(["conversation:a"]);
    lastSchedule = performance.now();
    await sleep(2);
  }
  await scheduler.idle();
  // Rebuild starts are ≥ 30 ms apart (the pause) whatever the machine's speed: the bound is the
  // elapsed time over the pause, plus the one after the last batch — never the batch count.
  const bound = Math.floor((lastSchedule - firstSchedule) / 30) + 2;
  assert.ok(starts.length <= bound && starts.length < 100, `${starts.length} rebuilds for 100 batches (bound ${bound})`);
  for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= 29, "rebuilds of one key are a pause apart");
  assert.ok(starts.at(-1)! > lastSchedule, "a batch scheduled during a rebuild gets one more rebuild after it");
  assert.equal(scheduler.has("conversation:a"), false);
});

test("the pause grows with the rebuild's duration (factor × last rebuild), so a growing session's total work stays linear", async () => {
  const starts: number[] = [];
  const scheduler = new OtlpRebuildScheduler({
    rebuild: async () => {
      starts.push(performance.now());
      await sleep(40);
    },
    intervalMs: () => 0,
    factor: 2,
  });
  scheduler.schedule(["k"]);
  await sleep(5);
  scheduler.schedule(["k"]); // during the first rebuild: one more, after a pause of ≥ 2 × 40 ms
  await scheduler.idle();
  assert.equal(starts.length, 2);
  assert.ok(starts[1]! - starts[0]! >= 40 + 75, `second rebuild ${starts[1]! - starts[0]!} ms after the first`);
});

test("with concurrency 1 keys rebuild one at a time; a failed rebuild is reported and the key released", async () => {
  let running = 0;
  let most = 0;
  const failed: string[] = [];
  const scheduler = new OtlpRebuildScheduler({
    rebuild: async (key) => {
      running++;
      most = Math.max(most, running);
      await sleep(5);
      running--;
      if (key === "bad") throw new Error("disk full");
    },
    intervalMs: () => 0,
    concurrency: 1,
    onError: (key) => failed.push(key),
  });
  scheduler.schedule(["a", "b", "bad", "c"]);
  await scheduler.idle();
  assert.equal(most, 1);
  assert.deepEqual(failed, ["bad"]);
  assert.equal(scheduler.rebuilds, 4);
  assert.equal(scheduler.has("bad"), false);
});
