import { otlpSpanIdAtCut } from "../../trace/export-otlp-ids";
import type { Session } from "../../trace/model";
import { buildHistory, currentLabels } from "../history";
import type { ReviewLabel } from "../label-schema";

/**
 * Review labels as OpenInference / Phoenix span annotations: the body Phoenix's
 * `POST /v1/span_annotations` takes (`{data: [{span_id, name, annotator_kind, result: {label,
 * score, explanation}, metadata, identifier}]}`), each pointing at a span of the session's OTLP
 * export (lib/trace/export-otlp-json.ts, same `seed`). A label is about a replay cut, so it
 * annotates the model call made right after the prefix (`otlpSpanIdAtCut`).
 *
 * Only what counts now is exported: the latest version of each label thread, retracted threads
 * left out (lib/review/history.ts `currentLabels`). `identifier` is the thread id, so sending a
 * newer export again updates the annotation in Phoenix instead of adding a second one. The
 * Tracefold label fields that have no place in `result` go to `metadata` unchanged, so nothing a
 * reviewer said is lost.
 */
export interface SpanAnnotation {
  span_id: string;
  name: string;
  annotator_kind: "HUMAN";
  result: { label: string; score?: number; explanation?: string };
  metadata: Record<string, unknown>;
  identifier: string;
}

/** Where the labels come from: the queue each label was saved in, by label thread id. */
export type LabelQueues = ReadonlyMap<string, { id: string; name: string; kind: string }>;

/** Every version of the session's labels in, the current ones out (thread order, then version history's order). */
export function toSpanAnnotations(
  labels: readonly ReviewLabel[],
  session: Pick<Session, "messages">,
  seed: string,
  queues: LabelQueues = new Map(),
): { data: SpanAnnotation[] } {
  const data = currentLabels(buildHistory(labels)).map((label): SpanAnnotation => {
    const { result, details } = describe(label);
    const queue = queues.get(label.labelId);
    return {
      span_id: otlpSpanIdAtCut(session, label.ref.cut, seed),
      name: label.kind,
      annotator_kind: "HUMAN",
      result: { ...result, ...(label.comment && result.explanation === undefined ? { explanation: label.comment } : {}) },
      metadata: stripUndefined({
        source: "tracefold",
        labelId: label.labelId,
        version: label.version,
        reviewer: label.reviewer,
        createdAt: label.createdAt,
        cut: label.ref.cut,
        runId: label.ref.runId,
        comment: label.comment,
        ...(queue ? { queueId: queue.id, queueName: queue.name, queueKind: queue.kind } : {}),
        ...details,
      }),
      identifier: label.labelId,
    };
  });
  return { data };
}

/** The kind's verdict as Phoenix's label (and score where the label has one), the rest as details. */
function describe(label: ReviewLabel): { result: SpanAnnotation["result"]; details: Record<string, unknown> } {
  switch (label.kind) {
    case "dependency":
      return {
        result: { label: label.decision, ...(label.value ? { explanation: label.value } : {}) },
        details: { dependencyId: label.dependencyId, value: label.value, type: label.type, future: label.future, prefix: label.prefix },
      };
    case "cut_review":
      return { result: { label: "reviewed" }, details: {} };
    case "failure_category":
      return { result: { label: label.category }, details: { policy: label.policy, culpritId: label.culpritId } };
    case "ab":
      return { result: { label: label.verdict, score: label.confidence, explanation: label.rationale }, details: { sides: label.sides } };
    case "view_verdict":
      return {
        result: { label: label.verdict },
        details: { policy: label.policy, budget: label.budget, viewDigest: label.viewDigest, restores: label.restores, lost: label.lost },
      };
  }
}

function stripUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
