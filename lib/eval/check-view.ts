import type { ContextIndex } from "../context/objects";
import type { PolicyResult } from "../policies/types";
import type { PolicyAction, Sidecar } from "../projection/types";
import type { Session } from "../trace/model";
import { categorize, siblingFinder } from "./categories";
import { isRouted, routeTargetFor } from "./routing";
import type { CheckedDependency, Dependency, LostBy, PartRef } from "./types";
import { createDependencyMatcher, pointedSidecars, sidecarTexts, viewTexts, type DependencyMatcher } from "./view-texts";

/**
 * Checks each dependency against a policy's projected view (seed 000: "checks whether those
 * dependencies remain visible or recoverable after projection"):
 * - visible — the exact value occurs in some text of the view (summary and reminders included;
 *   fold pointers and masked parts hold only part of the original, so they count only for what
 *   they still literally contain);
 * - recoverable — the value is inside a sidecar payload whose pointer is visible and routed to the
 *   object holding the value (lib/eval/routing.ts: a whole-turn pointer does not route to the tool
 *   outputs inside the turn);
 * - missing — otherwise, with the action that lost it and a Table 7 category. A value in a sidecar
 *   whose pointer is visible but unrouted is missing with category `recovery_routing`.
 * Linear in view + pointed sidecars: one automaton pass each.
 */
export interface CheckViewInput {
  session: Session;
  index: ContextIndex;
  dependencies: readonly Dependency[];
  result: Pick<PolicyResult, "view" | "sidecars" | "actions" | "cut">;
  /** Reuse across policies at the same cut (`createDependencyMatcher(dependencies)`). */
  matcher?: DependencyMatcher;
}

export function checkView(input: CheckViewInput): CheckedDependency[] {
  const { session, index, dependencies, result } = input;
  const matcher = input.matcher ?? createDependencyMatcher(dependencies);
  const texts = viewTexts(result.view);
  const visible = matcher.findIn(texts.map((t) => t.text));
  const inSidecar = new Map<number, Sidecar>();
  const pointersOf = new Map<Sidecar, string[]>();
  if (visible.size < dependencies.length) {
    for (const { sidecar, pointers } of pointedSidecars(result, texts)) {
      pointersOf.set(sidecar, pointers);
      for (const i of matcher.findIn(sidecarTexts(sidecar))) if (!visible.has(i) && !inSidecar.has(i)) inSidecar.set(i, sidecar);
    }
  }
  const routed = new Map<string, boolean>();
  const isRoutedFor = (d: Dependency, s: Sidecar) => {
    const target = routeTargetFor([d.plantedAt, ...d.alsoAt], s, session, index);
    const key = `${s.sha256}|${target}`;
    return routed.get(key) ?? routed.set(key, isRouted(s, pointersOf.get(s) ?? [], session, index, target)).get(key)!;
  };
  const notVisible = dependencies.filter((d, i) => !visible.has(i) && !(inSidecar.has(i) && isRoutedFor(d, inSidecar.get(i)!)));
  const olderSibling = siblingFinder(notVisible, texts, session, result.cut);
  const lostByOf = actionLookup(index, result.actions);

  return dependencies.map((dependency, i) => {
    if (visible.has(i)) return { ...dependency, status: "visible" };
    const sidecar = inSidecar.get(i);
    const sidecarRef = sidecar ? { sidecar: { target: sidecar.target, sha256: sidecar.sha256 } } : {};
    if (sidecar && isRoutedFor(dependency, sidecar)) return { ...dependency, status: "recoverable", ...sidecarRef };
    const lostBy = lostByOf(dependency);
    const category = sidecar ? "recovery_routing" : categorize(dependency, lostBy, { session, index, olderSibling });
    return { ...dependency, status: "missing", category, ...(lostBy ? { lostBy } : {}), ...sidecarRef };
  });
}

/**
 * The action that removed a dependency: for its planting occurrence (then the others, in order),
 * an action whose target is the part's function object (a tool result, or the result a tool call
 * belongs to), the message (`message:<i>`, lineage repair and preamble edits) or the enclosing
 * conversation object (turn folds and summaries: a collapsed message is `summarize`d under its turn).
 */
function actionLookup(index: ContextIndex, actions: readonly PolicyAction[]): (d: Dependency) => LostBy | undefined {
  const byTarget = new Map<string, PolicyAction>();
  for (const action of actions) if (!byTarget.has(action.target)) byTarget.set(action.target, action);
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
        if (action) return { target: action.target, action: action.action, rule: action.rule };
      }
    }
    return undefined;
  };
}
