import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, test } from "node:test";
import { startTempSweeps, tempDirs } from "../../../../server/trace/import/temp-sweeps";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A data directory with the two temp folders, and a way to put a file of a given age in one. */
function dataDir() {
  const root = mkdtempSync(join(tmpdir(), "tracefold-temps-"));
  roots.push(root);
  const [uploads, imports] = tempDirs(root) as [string, string];
  mkdirSync(uploads, { recursive: true });
  mkdirSync(imports, { recursive: true });
  const put = (dir: string, name: string, ageMs: number) => {
    const path = join(dir, name);
    writeFileSync(path, "sk-live-secret in a raw upload");
    const at = (Date.now() - ageMs) / 1000;
    utimesSync(path, at, at);
    return path;
  };
  return { uploads, imports, put };
}

test("abandoned temp files go at start-up in both folders; young ones (an upload in flight) stay", async () => {
  const { uploads, imports, put } = dataDir();
  const oldUpload = put(uploads, "a.upload", 2 * 3_600_000);
  const oldRedacted = put(uploads, "a.upload.redacted", 2 * 3_600_000);
  const oldImport = put(imports, "b.upload", 2 * 3_600_000);
  const young = put(uploads, "c.upload", 60_000);
  const lines: string[] = [];
  const sweeps = startTempSweeps({ dirs: tempDirs(join(uploads, "..", "..")), everyMs: 0, log: (l) => lines.push(l) });
  await sweeps.swept;
  await sweeps.stop();
  assert.deepEqual([oldUpload, oldRedacted, oldImport].map(existsSync), [false, false, false]);
  assert.equal(existsSync(young), true);
  assert.equal(lines.length, 2, lines.join("\n"));
});

test("the timer sweeps again: a file that ages past the limit later goes on the next round, and stop ends the rounds", async () => {
  const { uploads, put } = dataDir();
  const root = join(uploads, "..", "..");
  // Rounds are awaited, not slept on: each completed round resolves the waiters queued before it.
  let rounds = 0;
  let waiters: (() => void)[] = [];
  // The sweep's timer is unref'd (it must not keep a studio alive), so the wait holds a ref'd timer
  // of its own: it keeps the test's event loop running and fails clearly if no round ever comes.
  const nextRound = () =>
    new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error("no sweep round within 10 s")), 10_000);
      waiters.push(() => {
        clearTimeout(timeout);
        resolve();
      });
    });
  const sweeps = startTempSweeps({
    dirs: tempDirs(root),
    everyMs: 20,
    maxAgeMs: 1_000,
    log: () => undefined,
    onRound: () => {
      rounds++;
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    },
  });
  await sweeps.swept;
  const later = put(uploads, "d.upload", 5_000);
  // The round that removes it starts after the put: wait for two, since one may already be in flight.
  await nextRound();
  await nextRound();
  assert.equal(existsSync(later), false, "removed by a later round");
  await sweeps.stop();
  const roundsAtStop = rounds;
  const afterStop = put(uploads, "e.upload", 5_000);
  // Absence of rounds: stop() has cleared the timer and awaited the round in flight, so no wait here can race one.
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(rounds, roundsAtStop, "no round after stop");
  assert.equal(existsSync(afterStop), true, "nothing removed after stop");
});

test("a missing folder is not an error", async () => {
  const root = mkdtempSync(join(tmpdir(), "tracefold-temps-"));
  roots.push(root);
  const lines: string[] = [];
  const sweeps = startTempSweeps({ dirs: tempDirs(root), everyMs: 0, log: (l) => lines.push(l) });
  await sweeps.swept;
  assert.deepEqual(lines, []);
});
