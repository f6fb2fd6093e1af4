import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { replayCuts } from "../../../../lib/evaluation/cuts/cut-protocol";
import { checkView } from "../../../../lib/evaluation/judge/check-view";
import { findConstraints } from "../../../../lib/evaluation/judge/constraints";
import { extractDependencies } from "../../../../lib/evaluation/judge/dependencies";
import { findPolicy } from "../../../../lib/compaction/policies/registry";
import { runPolicy } from "../../../../lib/compaction/policies/run-policy";
import { windowAtLevel } from "../../../../lib/compaction/policies/select-cut";
import { cachedTokenizer } from "../../../../lib/tokens";
import type { AnalyzedSession } from "../../../../lib/analysis/analyze";
import { loadAllTraces } from "../../../helpers/load-traces";

/**
 * Issue 16, item 7: the judge's precision on the real traces the audit found each case in.
 */
async function session(pathPart: string, id?: string): Promise<AnalyzedSession> {
  for (const trace of await loadAllTraces()) {
    if (!trace.entry.path.includes(pathPart)) continue;
    const found = trace.sessions.find((s) => id === undefined || s.session.id === id);
    if (found) return found;
  }
  throw new Error(`no session ${id ?? ""} in ${pathPart}`);
}

describe("judge precision on the audit's real cases", () => {
  test("a number the future's own git diff printed before using it is not a dependency (astropy-12907, `@@ -242,7`)", async () => {
    const s = await session("astropy__astropy-12907");
    const cuts = replayCuts(s.session, s.index);
    assert.ok(cuts.length > 0);
    for (const cut of cuts) {
      const deps = extractDependencies(s.session, s.index, cut.cut).dependencies;
      assert.ok(!deps.some((d) => d.value === "242"), `cut ${cut.cut}: "242" was re-derived from the diff at message 71 before message 72 used it`);
    }
  });

  test("a customer's statement of fact is not a behavioral contract; a directive still is (tau-bench airline)", async () => {
    const s = await session("gpt-4o-airline", "task-33-trial-0");
    const sentences = findConstraints(s.session.messages, s.session.messages.length).map((c) => c.sentence);
    assert.ok(!sentences.some((x) => /don't have the reservation ID/i.test(x)), sentences.join(" | "));
    const all = (await loadAllTraces()).find((t) => t.entry.path.includes("gpt-4o-airline"))!.sessions;
    const directives = all.flatMap((x) => findConstraints(x.session.messages, x.session.messages.length).map((c) => c.sentence));
    assert.ok(
      directives.some((x) => /I don't want to fly before 11am/.test(x)),
      "a stated preference that binds the booking stays a constraint",
    );
    assert.ok(!directives.some((x) => /\?$/.test(x)), "questions are not constraints");
  });

  test("a pointer routes only to the object whose digest it names (tau-bench tasks 6 and 7: certificate vs gift card)", async () => {
    const all = (await loadAllTraces()).find((t) => t.entry.path.includes("gpt-4o-airline"))!.sessions;
    const sessions = all.filter((x) => /^task-[67]-trial-/.test(x.session.id));
    const tokenizer = cachedTokenizer("o200k");
    let checked = 0;
    for (const s of sessions)
      for (const cut of replayCuts(s.session, s.index))
        for (const share of [0.3, 0.5, 0.7]) {
          const result = await runPolicy(findPolicy("self-gc")!, {
            session: s.session,
            index: s.index,
            cut: cut.cut,
            window: windowAtLevel(cut.prefixTokens),
            tokenizer,
            targetTokens: Math.round(cut.prefixTokens * share),
          });
          const deps = extractDependencies(s.session, s.index, cut.cut).dependencies;
          const before = checkView({ session: s.session, index: s.index, dependencies: deps, result });
          // A value only one sidecar holds, beside another sidecar the view could name instead.
          const restorable = before.filter((d) => d.status === "restorable" && result.sidecars.filter((x) => x.payload.includes(d.value)).length === 1);
          if (restorable.length === 0 || result.sidecars.length < 2) continue;
          const target = restorable[0]!.sidecar!.sha256;
          const other = result.sidecars.find((x) => x.sha256 !== target)!.sha256;
          const swap = (t: string) => t.split(target).join(other).split(target.slice(0, 12)).join(other.slice(0, 12));
          const view = result.view.map((m) => ({
            ...m,
            parts: m.parts.map((p) => (p.type === "text" ? { ...p, text: swap(p.text) } : p.type === "tool_result" ? { ...p, content: swap(p.content) } : p)),
          }));
          const after = checkView({ session: s.session, index: s.index, dependencies: deps, result: { ...result, view } });
          const moved = after.find((d) => d.id === restorable[0]!.id)!;
          if (!moved.sidecar || moved.sidecar.sha256 !== target) continue;
          assert.equal(moved.status, "lost", `${moved.value}: its sidecar is no longer named, another one is`);
          assert.equal(moved.category, "recovery_routing");
          checked++;
        }
    assert.ok(checked > 0, "some cut folded a value into a sidecar beside another one");
  });
});
