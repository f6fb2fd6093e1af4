import assert from "node:assert/strict";
import { before, test } from "node:test";
import { findPolicy } from "../../../lib/compaction/policies/registry";
import { rolloutSession, type RolloutSessionResult } from "../../../lib/rollout/rollout-session";
import { generateScenario } from "../../../lib/scenario";
import type { Session } from "../../../lib/trace/model";
import { cachedTokenizer } from "../../../lib/tokens";

/*
 * The harness's hard limit (`rolloutSession(..., { hardLimit: true })`): where a policy's own
 * decision leaves the prompt over the window, the harness asks it, through the one target parameter
 * every policy takes, to compact to its trigger share of the window. On a long generated debugging
 * session in a 16K window self-gc's commit gate keeps plans pending while the prompt outgrows the
 * window; the limit makes it commit. A policy that ignores targets (`none`) is not changed.
 */
const WINDOW = 16_000;
const tokenizer = cachedTokenizer("o200k");
let session: Session;
before(() => {
  session = generateScenario({ workload: "scheduled-task-debug", seed: 7, targetTokens: 150_000 }).session;
});

const overWindow = (r: RolloutSessionResult) => r.calls.filter((c) => c.with.input > WINDOW).length;
const walk = (id: string, hardLimit: boolean) => rolloutSession(session, findPolicy(id)!, { window: WINDOW, tokenizer, hardLimit });

test("self-gc: the hard limit commits where its gate kept plans pending over the window, and fewer calls are over it", async () => {
  const [off, on] = [await walk("self-gc", false), await walk("self-gc", true)];
  assert.equal(off.hardLimitCommits, 0);
  assert.ok(on.hardLimitCommits > 0, "the limit asked for commits");
  assert.ok(overWindow(off) > 0, "without the limit some prompts outgrow the window");
  assert.ok(overWindow(on) < overWindow(off), `calls over the window: ${overWindow(off)} without, ${overWindow(on)} with`);
  assert.ok(on.compactions.length > off.compactions.length);
  assert.equal(on.calls.length, off.calls.length, "the same calls are walked");
});

test("a policy whose own commits fit (tool-prune) or that cannot do smaller under a target (oldest-turn) walks exactly as without the limit", async () => {
  for (const id of ["tool-prune", "oldest-turn"]) {
    const [off, on] = [await walk(id, false), await walk(id, true)];
    assert.deepEqual(on.calls, off.calls, id);
    assert.equal(on.hardLimitCommits, 0, id);
  }
});

test("none ignores targets: with the hard limit its walk is the same and nothing is committed", async () => {
  const [off, on] = [await walk("none", false), await walk("none", true)];
  assert.ok(overWindow(off) > 0);
  assert.deepEqual(on.calls, off.calls);
  assert.deepEqual([on.compactions.length, on.hardLimitCommits], [0, 0]);
});
