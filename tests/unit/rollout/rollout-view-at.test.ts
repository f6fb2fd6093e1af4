import assert from "node:assert/strict";
import { test } from "node:test";
import { createAnalyzer } from "@/lib/analysis/analyze";
import { buildContextIndex } from "@/lib/compaction/context/objects";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { rolloutSessionWalks } from "@/lib/rollout/rollout-session-walks";
import { rolloutViewAt } from "@/lib/rollout/rollout-view-at";
import { generateScenario } from "@/lib/scenario/generate";
import { WORKLOAD_IDS } from "@/lib/scenario/types";
import type { Session } from "@/lib/trace/model";

/*
 * The page "the view the agent had at a lost call" shows `rolloutViewAt`: the prompt the rollout's
 * walk gave the model at one call. These tests hold it to the walk the run stored (same engine, same
 * options), to the token, and check that a planted value the walk lost there is not in it.
 */
function items() {
  return WORKLOAD_IDS.flatMap((workload) =>
    [1, 2].map((seed) => {
      const scenario = generateScenario({ workload, seed });
      return { scenario, item: { session: scenario.session, tokenizer: createAnalyzer().tokenizerFor(scenario.session) } };
    }),
  );
}

/** Tokens of a list of messages, counted as the walk counts a prompt (a fresh index over them alone). */
function promptTokens(session: Session, messages: Session["messages"], tokenizer: ReturnType<ReturnType<typeof createAnalyzer>["tokenizerFor"]>) {
  return buildContextIndex({ ...session, messages: messages.map((m, i) => ({ ...m, index: i })), compactions: [] }, tokenizer).prefixTokens[messages.length]!;
}

const textOf = (messages: Session["messages"]) => JSON.stringify(messages.map((m) => m.parts));

test("the view at a lost call is the prompt the walk used: its tokens plus the restores in effect are the call's with.input, and the planted value lost there is not in it", async () => {
  let checkedLost = 0;
  for (const { scenario, item } of items()) {
    const policy = findPolicy("tool-prune")!;
    const { walks } = await rolloutSessionWalks(item, [policy]);
    const walk = walks[0]!.result;
    for (const step of walk.lostSteps.slice(0, 2)) {
      const view = (await rolloutViewAt(item, policy, {}, step.call))!;
      assert.ok(view, `${item.session.id}: call ${step.call} has a view`);
      assert.deepEqual(view.withCall, walk.calls[step.call], "the call the run stored, to the token");
      assert.equal(view.tokens.view + view.tokens.restored, walk.calls[step.call]!.with.input);
      assert.equal(view.tokens.restored, 0, "pruning restores nothing");
      assert.equal(
        view.tokens.view,
        promptTokens(
          item.session,
          view.messages.map((m) => m.message),
          item.tokenizer,
        ),
        "the messages shown are the prompt counted",
      );
      assert.deepEqual(view.lost, step.lost);
      assert.equal(view.round, walk.compactions.filter((c) => c.call <= step.call).length);
      assert.ok(view.round >= 1 && view.messages.some((m) => m.inHead), "a lost call comes after a commit: the prompt starts with its head");
      // tool-prune drops whole tool exchanges: the head keeps original messages in order, with gaps.
      const headOrigins = view.messages.filter((m) => m.inHead).map((m) => m.origin as number);
      const base = view.messages.find((m) => !m.inHead)?.origin ?? view.message;
      assert.ok(headOrigins.every((o, i) => i === 0 || o > headOrigins[i - 1]!) && headOrigins.length < (base as number), "the head dropped what was pruned");
      // The messages after the head are the original messages since the commit, unchanged.
      for (const m of view.messages.filter((v) => !v.inHead)) assert.deepEqual(m.message.parts, item.session.messages[m.origin as number]!.parts);
      assert.equal(view.messages.at(-1)!.origin, view.message - 1, "the prompt ends right before the call's message");
      const prompt = textOf(view.messages.map((m) => m.message));
      const step0 = textOf(view.step);
      for (const planted of scenario.groundTruth.filter((g) => step.lost.some((l) => l.value.includes(g.anchor)))) {
        assert.ok(!prompt.includes(planted.anchor), `${item.session.id}: planted ${planted.id} is not in the view at call ${step.call}`);
        assert.ok(step0.includes(planted.anchor), `${item.session.id}: the step shown uses ${planted.id}`);
        checkedLost++;
      }
      for (const lost of step.lost) assert.ok(!prompt.includes(lost.value), `${item.session.id}: lost ${lost.value} is not in the prompt`);
    }
  }
  assert.ok(checkedLost > 0, "some planted value was lost and checked");
});

test("a folding policy's view at a restoring call holds the fold pointers, and the restored payloads make up the rest of with.input", async () => {
  let restoring = 0;
  for (const { item } of items()) {
    const policy = findPolicy("oldest-turn")!;
    const { walks } = await rolloutSessionWalks(item, [policy]);
    const walk = walks[0]!.result;
    const restore = walk.restores[0];
    if (!restore) continue;
    const view = (await rolloutViewAt(item, policy, {}, restore.call))!;
    assert.deepEqual(view.withCall, walk.calls[restore.call]);
    assert.ok(
      view.restores.some((r) => r.sha256 === restore.sha256 && r.texts.join("").length > 0),
      "the restored payload is shown",
    );
    assert.equal(
      view.tokens.restored,
      view.restores.reduce((a, r) => a + r.cost, 0),
    );
    assert.ok(view.tokens.restored > 0);
    assert.equal(view.tokens.view + view.tokens.restored, walk.calls[restore.call]!.with.input);
    assert.equal(
      view.tokens.view,
      promptTokens(
        item.session,
        view.messages.map((m) => m.message),
        item.tokenizer,
      ),
    );
    assert.ok(
      view.messages.some((m) => m.actions.includes("fold")),
      "the head carries the fold pointers",
    );
    // What the harness added (pointers, reminders) is marked with its action; the messages since the commit are the trace's alone.
    for (const m of view.messages) {
      m.added.forEach((added, p) => assert.ok(!added || m.actions[p] !== undefined, `${item.session.id}: an added part of #${m.origin} has its action`));
      if (!m.inHead) assert.deepEqual([m.added.some(Boolean), m.actions.some(Boolean)], [false, false]);
    }
    restoring++;
  }
  assert.ok(restoring > 0, "oldest-turn restored something in some scenario");
});

test("before the first commit the view is the original prompt; a call the walk does not have is undefined", async () => {
  const { item } = items()[0]!;
  const policy = findPolicy("tool-prune")!;
  const { walks } = await rolloutSessionWalks(item, [policy]);
  const walk = walks[0]!.result;
  const first = walk.calls[1]!;
  assert.equal(walk.compactions[0]!.call > 1, true, "the first commit comes later");
  const view = (await rolloutViewAt(item, policy, {}, 1))!;
  assert.equal(view.round, 0);
  assert.deepEqual(
    view.messages.map((m) => m.origin),
    item.session.messages.slice(0, first.message).map((_, i) => i),
  );
  assert.equal(view.tokens.view, first.without.input);
  assert.deepEqual([view.calls, view.lostCalls], [walk.calls.length, walk.lostSteps.map((s) => ({ call: s.call, values: s.lost.length }))]);
  for (const call of [-1, 1.5, walk.calls.length]) assert.equal(await rolloutViewAt(item, policy, {}, call), undefined, `call ${call}`);
});
