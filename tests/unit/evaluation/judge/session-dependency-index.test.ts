import assert from "node:assert/strict";
import { test } from "node:test";
import { dependenciesAtCommit } from "../../../../lib/evaluation/judge/dependencies-at-commit";
import { extractDependencies } from "../../../../lib/evaluation/judge/dependencies";
import { buildSessionDependencyIndex } from "../../../../lib/evaluation/judge/session-dependency-index";
import { SpanWindowIndex } from "../../../../lib/evaluation/judge/span-windows";
import { findSharedSpans } from "../../../../lib/evaluation/judge/shared-spans";
import { loadAllTraces } from "../../../helpers/load-traces";

/**
 * The rollout's judge reads one index per session (`buildSessionDependencyIndex`) and asks it at
 * each commit (`dependenciesAtCommit`); at a cut of the original session (no head: `at` = `cut`)
 * the answer must be `extractDependencies`'s, field for field, stats included.
 */
test("at every 5th message of every real session, the session index answers exactly what extractDependencies extracts", async () => {
  let cuts = 0;
  let dependencies = 0;
  let spans = 0;
  for (const { sessions } of await loadAllTraces()) {
    for (const { session, index } of sessions) {
      const ix = buildSessionDependencyIndex(session);
      for (let cut = 1; cut < session.messages.length; cut += 5) {
        const expected = extractDependencies(session, index, cut);
        assert.deepEqual(dependenciesAtCommit(ix, { session, index, cut, at: cut }), expected, `${session.id} cut ${cut}`);
        cuts++;
        dependencies += expected.dependencies.length;
        spans += expected.dependencies.filter((d) => d.kind === "verbatim" && d.value.length >= 40).length;
      }
    }
  }
  assert.ok(cuts >= 1_000 && dependencies >= 10_000 && spans >= 100, `${cuts} cuts, ${dependencies} dependencies, ${spans} long verbatim`);
});

test("span windows: spans from a query on are findSharedSpans over those queries, whatever the corpus", () => {
  const line = "the quick brown fox jumps over the lazy dog and keeps running";
  const queries = [`x ${line} y`, "nothing shared here at all, not a single window of forty", `${line.slice(5)} and ${line}`, line.slice(0, 39)];
  const index = new SpanWindowIndex(queries, 40);
  for (const corpus of [[line], [`prefix ${line.slice(0, 45)}`, line.slice(20)], ["unrelated corpus text that is long enough to hash"], []]) {
    for (let from = 0; from <= queries.length; from++) {
      const expected = findSharedSpans(queries.slice(from), corpus, 40).map((s) => ({ ...s, query: s.query + from }));
      assert.deepEqual(index.spansFrom(from, corpus), expected, `from ${from}, corpus ${JSON.stringify(corpus)}`);
    }
  }
});
