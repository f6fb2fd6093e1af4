import { z } from "zod";
import { AB_VERDICTS } from "../evaluation/llm-judge/ab-verdict";
import { FAILURE_CATEGORY_IDS, type FailureCategory } from "../scenario/failure-categories";

/**
 * The review studio's labels: the public JSON contract of what a reviewer decided (stored, exported
 * as JSONL/CSV, imported back). Field names are stable; the doc comments here are their documentation.
 *
 * Every label is one version of a label thread (`labelId`): a change is a new version that
 * `supersedes` the previous one, so nothing a reviewer said is ever overwritten (see history.ts).
 * Undo of a first label is a new version with `retracted: true`.
 *
 * Spans are offsets in UTF-16 code units into the text the dependency judge reads for a part
 * (`readableText(session.messages[message].parts[part])`), end exclusive, with the selected text.
 */
export const LABEL_KINDS = ["dependency", "cut_review", "failure_category", "ab", "view_verdict"] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

/**
 * What a dependency was, in Table 7 terms (lib/scenario/failure-categories.ts): evidence detail,
 * locator/handle, behavioral contract, verbatim source, live state. Recovery routing is not a kind
 * of need but a way a fold can lose one, so it is a failure category only.
 */
export const DEPENDENCY_TYPES = [
  "evidence_detail",
  "locator_handle",
  "behavioral_contract",
  "verbatim_source",
  "live_state",
] as const satisfies readonly FailureCategory[];
export type DependencyType = (typeof DEPENDENCY_TYPES)[number];

export const DEPENDENCY_DECISIONS = ["confirm", "reject", "add"] as const;
export type DependencyDecision = (typeof DEPENDENCY_DECISIONS)[number];

const count = z.number().int().nonnegative();
const text = z.string().min(1);

/** A replay cut: the session, the cut (messages before it are the prefix) and the evaluation run. */
export const CutRefSchema = z.strictObject({ sessionId: text, cut: count, runId: text.optional() });
export type CutRef = z.infer<typeof CutRefSchema>;

export const SpanSchema = z
  .strictObject({ message: count, part: count, start: count, end: count, text })
  .refine((s) => s.end - s.start === s.text.length, { message: "end − start must equal the length of text", path: ["end"] });
export type Span = z.infer<typeof SpanSchema>;

/** Who and when, and the place of this version in its thread. */
const meta = {
  labelId: z.string().min(1).max(200),
  version: z.number().int().min(1),
  /** The version this one replaces: null for version 1, else version − 1. */
  supersedes: z.number().int().min(1).nullable(),
  reviewer: text,
  /** ISO 8601 instant with offset, e.g. 2026-11-23T10:00:00.000Z. */
  createdAt: z.iso.datetime({ offset: true }),
  /** True on a version that withdraws the label (undo); the thread's history stays. */
  retracted: z.literal(true).optional(),
  comment: text.optional(),
};

/**
 * A reviewer's decision on one dependency of a cut: confirm or reject a judge candidate (named by
 * its `dependencyId` and `value`, so the label survives a re-extraction), or add one the judge
 * missed by selecting the future span that used it and the prefix span it needed.
 */
export const DependencyLabelSchema = z.strictObject({
  kind: z.literal("dependency"),
  ...meta,
  ref: CutRefSchema,
  decision: z.enum(DEPENDENCY_DECISIONS),
  dependencyId: text.optional(),
  value: text.optional(),
  type: z.enum(DEPENDENCY_TYPES).optional(),
  future: SpanSchema.optional(),
  prefix: SpanSchema.optional(),
});

/** "I am done with this cut": completes a dependency queue item for its reviewer. */
export const CutReviewLabelSchema = z.strictObject({ kind: z.literal("cut_review"), ...meta, ref: CutRefSchema });

/** Why an impacted cut × policy failed: a Table 7 category and the object that lost it. */
export const FailureCategoryLabelSchema = z.strictObject({
  kind: z.literal("failure_category"),
  ...meta,
  ref: CutRefSchema,
  policy: text,
  category: z.enum(FAILURE_CATEGORY_IDS as [FailureCategory, ...FailureCategory[]]),
  /** Context object id, e.g. `function:exec:3`, `conversation:user:2`. */
  culpritId: text,
});

/** The hidden side mapping of an A/B item (same shape as lib/evaluation's `AbSides`). */
export const AbSidesSchema = z
  .strictObject({ A: text, B: text, swapped: z.boolean() })
  .refine((s) => s.A !== s.B, { message: "A and B must be different policies", path: ["B"] });

/** Seed 000 Listing 4 answered by a person, with the sides the reviewer saw. */
export const AbLabelSchema = z.strictObject({
  kind: z.literal("ab"),
  ...meta,
  ref: CutRefSchema,
  sides: AbSidesSchema,
  verdict: z.enum(AB_VERDICTS),
  rationale: text,
  confidence: z.number().min(0).max(1),
});

/**
 * Whether one view of a cut still supports the real future, read carefully by a person blind to the
 * policy and to any judge (issue 16's gold set; seed 000's judge contract): `no_impact` (everything
 * the future needed is visible in the view), `restorable` (some of it only inside sidecars the view
 * names: `restores` lists their digests) or `impact` (something needed is lost: `lost` says what).
 * The view is named by its unit (`policy`, `budget`) and `viewDigest` (sha256 of its compact JSON),
 * so a label never silently moves to a different view of the same cut.
 */
export const VIEW_VERDICTS = ["no_impact", "restorable", "impact"] as const;
export type ViewVerdict = (typeof VIEW_VERDICTS)[number];

export const ViewVerdictLabelSchema = z.strictObject({
  kind: z.literal("view_verdict"),
  ...meta,
  ref: CutRefSchema,
  policy: text,
  /** `budgetKey` of the unit (`match-self-gc`, `budget-40`); absent at the policy's own settings. */
  budget: text.optional(),
  viewDigest: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex"),
  verdict: z.enum(VIEW_VERDICTS),
  restores: z.array(z.string().regex(/^[0-9a-f]{12,64}$/, "a sidecar digest in hex")).optional(),
  lost: z
    .array(z.strictObject({ value: text, category: z.enum(FAILURE_CATEGORY_IDS as [FailureCategory, ...FailureCategory[]]), usedAt: count.optional() }))
    .optional(),
});

export const ReviewLabelSchema = z
  .discriminatedUnion("kind", [DependencyLabelSchema, CutReviewLabelSchema, FailureCategoryLabelSchema, AbLabelSchema, ViewVerdictLabelSchema])
  .superRefine(checkLabel);

export type DependencyLabel = z.infer<typeof DependencyLabelSchema>;
export type CutReviewLabel = z.infer<typeof CutReviewLabelSchema>;
export type FailureCategoryLabel = z.infer<typeof FailureCategoryLabelSchema>;
export type AbLabel = z.infer<typeof AbLabelSchema>;
export type ViewVerdictLabel = z.infer<typeof ViewVerdictLabelSchema>;
export type ReviewLabel = DependencyLabel | CutReviewLabel | FailureCategoryLabel | AbLabel | ViewVerdictLabel;

/** Cross-field rules zod's shapes cannot say alone. */
function checkLabel(label: ReviewLabel, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (label.version === 1 ? label.supersedes !== null : label.supersedes !== label.version - 1) {
    issue(["supersedes"], label.version === 1 ? "must be null on version 1" : `must be ${label.version - 1} (version − 1)`);
  }
  if (label.kind === "view_verdict") {
    if (label.verdict === "impact" && !label.retracted && !label.lost?.length)
      issue(["lost"], "required when verdict is impact: what the future needed and the view lost");
    if (label.verdict === "restorable" && !label.retracted && !label.restores?.length)
      issue(["restores"], "required when verdict is restorable: the sidecars the future would restore");
    return;
  }
  if (label.kind !== "dependency") return;
  if (label.decision === "add") {
    if (!label.future) issue(["future"], "required when decision is add");
    if (!label.prefix) issue(["prefix"], "required when decision is add");
    if (label.dependencyId !== undefined) issue(["dependencyId"], "must be absent when decision is add");
    if (label.future && label.future.message < label.ref.cut) issue(["future", "message"], `must be ≥ the cut (${label.ref.cut})`);
    if (label.prefix && label.prefix.message >= label.ref.cut) issue(["prefix", "message"], `must be < the cut (${label.ref.cut})`);
  } else {
    if (label.dependencyId === undefined) issue(["dependencyId"], `required when decision is ${label.decision}`);
    if (label.value === undefined) issue(["value"], `required when decision is ${label.decision}`);
    if (label.future || label.prefix) issue([label.future ? "future" : "prefix"], "only an added dependency has spans");
  }
  if (label.decision !== "reject" && label.type === undefined && !label.retracted) issue(["type"], `required when decision is ${label.decision}`);
}
