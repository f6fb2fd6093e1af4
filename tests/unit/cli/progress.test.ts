import assert from "node:assert/strict";
import { test } from "node:test";
import { createProgress, formatEta } from "@/cli/progress";

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, columns: 100, write: (text: string) => void writes.push(text) };
}

test("on a terminal one line is redrawn with the bar, the rate and the time left", () => {
  let clock = 1_000;
  const out = sink(true);
  const progress = createProgress(out, { lines: false, now: () => clock });
  progress.update("replaying", 0, 100);
  clock += 10_000;
  progress.update("replaying", 20, 100);
  clock += 50; // within 100 ms of the last draw: not redrawn
  progress.update("replaying", 21, 100);
  assert.equal(out.writes.length, 2);
  assert.ok(out.writes.every((w) => w.startsWith("\r\x1b[K") && !w.includes("\n")));
  assert.match(out.writes[1]!, /^\r\x1b\[Kreplaying \[#+\.+\] 20\/100 20% 2\.0\/s ETA 40s$/);
  progress.note("a warning");
  assert.deepEqual(out.writes.slice(2), ["\r\x1b[K", "a warning\n"]);
});

test("the last update always draws, without an ETA", () => {
  let clock = 0;
  const out = sink(true);
  const progress = createProgress(out, { lines: false, now: () => clock });
  progress.update("pushing", 1, 2);
  clock += 1;
  progress.update("pushing", 2, 2);
  assert.match(out.writes.at(-1)!, /2\/2 100%$/);
});

test("piped, a plain line per tenth; with --json nothing", () => {
  const out = sink(false);
  const progress = createProgress(out, { lines: true, now: () => 0 });
  for (let done = 0; done <= 40; done++) progress.update("replaying", done, 40);
  assert.equal(out.writes.length, 11);
  assert.ok(out.writes.every((w) => /^replaying: \d+\/40\n$/.test(w)));
  const quiet = sink(false);
  const silent = createProgress(quiet, { lines: false });
  silent.update("replaying", 5, 10);
  assert.deepEqual(quiet.writes, []);
});

test("ETAs read as seconds, minutes or hours", () => {
  assert.equal(formatEta(42.4), "42s");
  assert.equal(formatEta(185), "3m05s");
  assert.equal(formatEta(3720), "1h02m");
  assert.equal(formatEta(-3), "0s");
});
