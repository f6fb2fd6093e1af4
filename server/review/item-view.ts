import { readableText } from "@/lib/eval/part-texts";
import type { DependencyKind } from "@/lib/eval/types";
import type { DependencyType, QueueItem, ReviewLabel } from "@/lib/review";
import type { Session } from "@/lib/trace/model";
import type { Db } from "../db/client";
import { getCutEvidence } from "../evals/list-run-cuts";
import { markPrefix } from "../policies/mark-prefix";
import { projectView } from "../policies/project-view";
import { loadCutContext, type CutContext } from "./cut-context";
import type { ItemView, MessageText, RemovedPart } from "./item-view-types";
import { loadLabels } from "./label-rows";

/** Characters of one part sent to the labeling screen; spans index into this text, so it is a prefix of the part. */
export const PART_TEXT_CAP = 20_000;
/** Prefix messages shown (the most recent ones) and future messages shown (the first ones). */
export const PREFIX_MESSAGES = 80;
export const FUTURE_MESSAGES = 40;

const TYPE_BY_KIND: Record<DependencyKind, DependencyType> = { url: "locator_handle", path: "locator_handle", id: "locator_handle", number: "evidence_detail", identifier: "evidence_detail", verbatim: "verbatim_source", constraint: "behavioral_contract" };

export async function getItemView(db: Db, queueId: string, runId: string, item: QueueItem, reviewer: string): Promise<ItemView | null> {
  const context = await loadCutContext(db, runId, item.ref.sessionId, item.ref.cut);
  if (!context) return null;
  const labels = await loadLabels(db, queueId, { itemKey: item.id });
  const latest = new Map<string, ReviewLabel>();
  for (const l of labels) latest.set(l.labelId, l);
  const title = await db.traceSession.findUnique({ where: { id: item.ref.sessionId }, select: { title: true } });
  const comments = await db.reviewComment.findMany({ where: { item: { queueId, itemKey: item.id } }, orderBy: { createdAt: "asc" } });
  const base = {
    itemKey: item.id,
    ref: item.ref,
    sessionTitle: title?.title ?? "(deleted session)",
    // A reviewer's own A/B answer goes back without the side mapping: the sides stay blind while they revise.
    mine: [...latest.values()].filter((l) => l.reviewer === reviewer).map((l) => (l.kind === "ab" ? { ...l, sides: { A: "A", B: "B", swapped: false } } : l)),
    completedBy: [...new Set([...latest.values()].filter((l) => !l.retracted && l.kind !== "dependency").map((l) => l.reviewer))],
    comments: comments.map((c) => ({ author: c.author, body: c.body, createdAt: c.createdAt.toISOString() })),
  };
  const { session, cut } = context;
  const future = messageTexts(session, cut, Math.min(session.messages.length, cut + FUTURE_MESSAGES));
  if (item.queue === "dependency") {
    const prefixStart = Math.max(0, cut - PREFIX_MESSAGES);
    const candidates = context.candidates.map((d) => ({ id: d.id, value: d.value, kind: d.kind, suggestedType: TYPE_BY_KIND[d.kind], plantedAt: d.plantedAt, usedAt: d.usedAt }));
    return { ...base, queue: "dependency", prefix: messageTexts(session, prefixStart, cut), prefixStart, future, candidates };
  }
  if (item.queue === "ab") return { ...base, queue: "ab", A: projected(context, item.sides.A), B: projected(context, item.sides.B), future };
  const result = context.results.get(item.policy);
  const evidence = await getCutEvidence(db, runId, `${item.ref.sessionId}#${cut}#${item.policy}`);
  return { ...base, queue: "failure_category", policy: item.policy, view: projected(context, item.policy), removed: result ? removedParts(context, item.policy) : [], evidence, objectIds: context.index.objects.map((o) => o.id) };
}

function messageTexts(session: Session, from: number, to: number): MessageText[] {
  return session.messages.slice(from, to).map((m, i) => ({
    message: from + i,
    role: m.role,
    parts: m.parts.map((p, part) => {
      const full = readableText(p);
      return { part, type: p.type, ...("name" in p && typeof p.name === "string" ? { name: p.name } : {}), text: full.slice(0, PART_TEXT_CAP), truncated: full.length > PART_TEXT_CAP };
    }),
  }));
}

function projected(context: CutContext, policy: string) {
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
      return [{ message, part, role: mark.role, action: p.action, ...(p.target ? { target: p.target } : {}), text: full.slice(0, 4_000), truncated: full.length > 4_000 }];
    }),
  );
}
