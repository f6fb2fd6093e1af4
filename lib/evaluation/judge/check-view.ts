import type { Sidecar } from "../../compaction/projection/types";
import type { Session } from "../../trace/model";
import { categorize, siblingFinder } from "./categories";
import type { CheckedDependency, Dependency, JudgedView, JudgeIndex, LostBy, PartRef } from "./types";
import { createDependencyMatcher, namedSidecars, sidecarTexts, viewTexts, type DependencyMatcher } from "./view-texts";

/**
 * Checks each dependency against a view (seed 000: "checks whether those dependencies remain
 * visible or recoverable after projection"), with three verdicts:
 * - visible — the exact value occurs in some text of the view (summaries, reminders and pointers
 *   included: they count for what they literally contain);
 * - restorable — not visible, but inside the payload of a sidecar whose digest (its first 12 hex
 *   digits at least) some view text names: the agent can see that the payload exists and ask for
 *   it by that digest. What the pointer says besides the digest does not matter here: pointer text
 *   is written by the harness, the same for every policy, and a restore is charged its cost
 *   (`restores.ts`) instead of being judged "routed" or not;
 * - lost — otherwise, with the action that lost it and a Table 7 category. A value inside a
 *   sidecar no view text names is lost with category `recovery_routing` (the payload exists but
 *   the view gives no way to find it).
 * Linear in view + named sidecars: one automaton pass each.
 */
export interface CheckViewInput {
  session: Session;
  index: JudgeIndex;
  dependencies: readonly Dependency[];
  result: JudgedView;
  /** Reuse across policies at the same cut (`createDependencyMatcher(dependencies)`). */
  matcher?: DependencyMatcher;
}

export function checkView(input: CheckViewInput): CheckedDependency[] {
  const { session, index, dependencies, result } = input;
  const matcher = input.matcher ?? createDependencyMatcher(dependencies);
  const texts = viewTexts(result.view);
  const visible = matcher.findIn(texts.map((t) => t.text));
  const restorable = new Map<number, Sidecar>();
  const unnamed = new Map<number, Sidecar>();
  if (visible.size < dependencies.length && result.sidecars.length > 0) {
    const named = namedSidecars(result.sidecars, texts);
    for (const sidecar of result.sidecars) {
      const into = named.has(sidecar) ? restorable : unnamed;
      for (const i of matcher.findIn(sidecarTexts(sidecar))) if (!visible.has(i) && !restorable.has(i) && !into.has(i)) into.set(i, sidecar);
    }
  }
  const notVisible = dependencies.filter((_, i) => !visible.has(i) && !restorable.has(i));
  const olderSibling = siblingFinder(notVisible, texts, session, result.cut);
  const lostByOf = actionLookup(index, result.actions);

  return dependencies.map((dependency, i) => {
    if (visible.has(i)) return { ...dependency, status: "visible" };
    const named = restorable.get(i);
    if (named) return { ...dependency, status: "restorable", sidecar: { target: named.target, sha256: named.sha256 } };
    const hidden = unnamed.get(i);
    const lostBy = lostByOf(dependency);
    const category = hidden ? "recovery_routing" : categorize(dependency, lostBy, { session, index, olderSibling });
    return {
      ...dependency,
      status: "lost",
      category,
      ...(lostBy ? { lostBy } : {}),
      ...(hidden ? { sidecar: { target: hidden.target, sha256: hidden.sha256 } } : {}),
    };
  });
}

/**
 * The action that removed a dependency: for its planting occurrence (then the others, in order),
 * an action whose target is the part's function object (a tool result, or the result a tool call
 * belongs to), the message (`message:<i>`, lineage repair and preamble edits) or the enclosing
 * conversation object (turn folds and summaries: a collapsed message is `summarize`d under its turn).
 */
function actionLookup(index: JudgeIndex, actions: JudgedView["actions"]): (d: Dependency) => LostBy | undefined {
  const byTarget = new Map<string, LostBy>();
  for (const action of actions)
    if (!byTarget.has(action.target)) byTarget.set(action.target, { target: action.target, action: action.action, rule: action.rule });
  let byCall: Map<string, string> | undefined;
  const targetsOf = (ref: PartRef): (string | undefined)[] => {
    byCall ??= new Map(index.objects.filter((o) => o.call).map((o) => [`${o.call!.message}:${o.call!.part}`, o.id]));
    const key = `${ref.message}:${ref.part}`;
    const fn = index.functionAt.get(key) ?? byCall.get(key);
    return [fn, `message:${ref.message}`, index.turnOf[ref.message], fn ? index.byId.get(fn)?.parentId : undefined];
  };
  return (dependency) => {
    for (const ref of [dependency.plantedAt, ...dependency.alsoAt]) {
      for (const target of targetsOf(ref)) {
        const action = target ? byTarget.get(target) : undefined;
        if (action) return action;
      }
    }
    return undefined;
  };
}
