import { checkView } from "@/lib/evaluation/judge/check-view";
import { readableText } from "@/lib/evaluation/judge/part-texts";
import type { CheckedDependency, DependencyKind } from "@/lib/evaluation/judge/types";
import type { DependencyType, QueueItem } from "@/lib/review";
import type { Session } from "@/lib/trace/model";
import type { CutEvidence } from "../evaluation/list-run-cuts";
import type { ProjectedMessage } from "../compaction/compaction-api";
import { markPrefix } from "../compaction/mark-prefix";
import { projectView } from "../compaction/project-view";
import type { CutContext } from "./cut-context";
import type { CandidateView, MessageText, RemovedPart } from "./item-view-types";

/** Characters of one part sent to the labeling screen; spans index into this text, so it is a prefix of the part. */
export const PART_TEXT_CAP = 20_000;
/** Prefix messages shown (the most recent ones) and future messages shown (the first ones). */
export const PREFIX_MESSAGES = 80;
export const FUTURE_MESSAGES = 40;

/**
 * An item's view data as stored (ReviewContext.body): everything the labeling screen shows that
 * depends only on the run, the session and the cut — never on labels, comments or who asks. The
 * dependency form also keeps the judge's candidates checked against each policy's view, which the
 * human verdicts (and so the agreement figure) need for every reviewed cut.
 */
export type StoredItemContext =
  | {
      screen: "dependency";
      sessionTitle: string;
      prefix: MessageText[];
      prefixStart: number;
      future: MessageText[];
      candidates: CandidateView[];
      checks: [policy: string, checked: CheckedDependency[]][];
    }
  | {
      screen: "failure";
      sessionTitle: string;
      policy: string;
      view: ProjectedMessage[];
      removed: RemovedPart[];
      evidence: CutEvidence | null;
      objectIds: string[];
    }
  | { screen: "ab"; sessionTitle: string; projections: Record<string, ProjectedMessage[]>; future: MessageText[] };

const TYPE_BY_KIND: Record<DependencyKind, DependencyType> = {
  url: "locator_handle",
  path: "locator_handle",
  id: "locator_handle",
  number: "evidence_detail",
  identifier: "evidence_detail",
  verbatim: "verbatim_source",
  constraint: "behavioral_contract",
};

/** Builds an item's stored view data from its cut's replay context (the evidence is read by the caller). */
export function buildItemContext(context: CutContext, item: QueueItem, sessionTitle: string, evidence: CutEvidence | null): StoredItemContext {
  const { session, cut } = context;
  const future = messageTexts(session, cut, Math.min(session.messages.length, cut + FUTURE_MESSAGES));
  if (item.queue === "dependency") {
    const prefixStart = Math.max(0, cut - PREFIX_MESSAGES);
    const candidates = context.candidates.map((d) => ({
      id: d.id,
      value: d.value,
      kind: d.kind,
      suggestedType: TYPE_BY_KIND[d.kind],
      plantedAt: d.plantedAt,
      usedAt: d.usedAt,
    }));
    const checks = [...context.results].map(([policy, result]): [string, CheckedDependency[]] => [
      policy,
      checkView({ session, index: context.index, dependencies: context.candidates, result }),
    ]);
    return { screen: "dependency", sessionTitle, prefix: messageTexts(session, prefixStart, cut), prefixStart, future, candidates, checks };
  }
  if (item.queue === "ab") {
    const projections: Record<string, ProjectedMessage[]> = {};
    for (const policy of [item.sides.A, item.sides.B]) projections[policy] = projected(context, policy);
    return { screen: "ab", sessionTitle, projections, future };
  }
  const removed = context.results.has(item.policy) ? removedParts(context, item.policy) : [];
  return {
    screen: "failure",
    sessionTitle,
    policy: item.policy,
    view: projected(context, item.policy),
    removed,
    evidence,
    objectIds: context.index.objects.map((o) => o.id),
  };
}

function messageTexts(session: Session, from: number, to: number): MessageText[] {
  return session.messages.slice(from, to).map((m, i) => ({
    message: from + i,
    role: m.role,
    parts: m.parts.map((p, part) => {
      const full = readableText(p);
      return {
        part,
        type: p.type,
        ...("name" in p && typeof p.name === "string" ? { name: p.name } : {}),
        text: full.slice(0, PART_TEXT_CAP),
        truncated: full.length > PART_TEXT_CAP,
      };
    }),
  }));
}

function projected(context: CutContext, policy: string): ProjectedMessage[] {
  const result = context.results.get(policy);
  return result ? projectView(result.view, result.sidecars, context.index, context.tokenizer) : [];
}

/** Every prefix part the policy changed or removed, with the original text (the diff's "before"). */
function removedParts(context: CutContext, policy: string): RemovedPart[] {
  const marks = markPrefix(context.results.get(policy)!, context.session, context.index);
  return marks.flatMap((mark, message) =>
    mark.parts.flatMap((p, part) => {
      if (p.action === "keep") return [];
      const full = readableText(context.session.messages[message]!.parts[part]!);
      return [
        {
          message,
          part,
          role: mark.role,
          action: p.action,
          ...(p.target ? { target: p.target } : {}),
          text: full.slice(0, 4_000),
          truncated: full.length > 4_000,
        },
      ];
    }),
  );
}
