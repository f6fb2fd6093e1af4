import { z } from "zod";
import { locateIssues } from "../../review/transfer/issues";
import { ViewVerdictLabelSchema, type ViewVerdict, type ViewVerdictLabel } from "../../review/label-schema";
import { sha256Hex } from "../../util/sha256";
import type { CompactMessage } from "../views/compact-view";
import type { SidecarSource } from "./sidecar-source";

/**
 * The judge's gold set (issue 16): units — one view of one real cut — each labelled by careful
 * reading of the real future against the view, blind to the policy and to any judge. One JSON line
 * per unit: `{ "unit": <the view, self-contained but for the trace>, "label": <a view_verdict
 * review label> }`, so the labels import into the review studio as they are and the views can be
 * judged again by any judge version without re-running a policy (a planner that changes later
 * does not make the gold set stale).
 *
 * The view is compact (`same` parts refer to the prefix) and sidecars name where their payload
 * sits in the trace (`source`, rebuilt and checked against the digest) or carry it (`payload`).
 * `trace.path` is relative to the traces directory, `trace.sha256` pins the file's bytes.
 */
const SourceSchema = z.union([
  z.strictObject({ kind: z.literal("part"), message: z.number().int().nonnegative(), part: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal("call"), message: z.number().int().nonnegative(), part: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal("span"), first: z.number().int().nonnegative(), last: z.number().int().nonnegative() }),
]);

export const GoldSidecarSchema = z.strictObject({
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  objectId: z.string(),
  source: SourceSchema.optional(),
  payload: z.string().optional(),
});

export const GoldUnitSchema = z.strictObject({
  id: z.string().min(1),
  trace: z.strictObject({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  sessionId: z.string().min(1),
  cut: z.number().int().positive(),
  policy: z.string().min(1),
  params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  budget: z.string().nullable(),
  pointers: z.enum(["semantic", "plain"]),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  viewDigest: z.string().regex(/^[0-9a-f]{64}$/),
  view: z.array(z.unknown()),
  sidecars: z.array(GoldSidecarSchema),
});

export const GoldLineSchema = z.strictObject({ unit: GoldUnitSchema, label: ViewVerdictLabelSchema });

export interface GoldSidecar {
  digest: string;
  objectId: string;
  source?: SidecarSource;
  payload?: string;
}

export type GoldUnit = Omit<z.infer<typeof GoldUnitSchema>, "view" | "sidecars"> & { view: CompactMessage[]; sidecars: GoldSidecar[] };
export interface GoldLine {
  unit: GoldUnit;
  label: ViewVerdictLabel;
}

/** The digest a label names its view by: sha256 of the compact view's JSON. */
export function viewDigest(view: readonly CompactMessage[]): string {
  return sha256Hex(JSON.stringify(view));
}

export interface GoldParseError {
  line: number;
  message: string;
}

/** A problem with one gold line: the field (dotted path, `(line)` for the whole line), what was expected there, and what was wrong. */
export interface GoldLineIssue {
  field: string;
  expected: string;
  message: string;
}

/**
 * Checks one line of a gold file: JSON, the schema, and that the unit's digest is its view's and
 * the label names that view. Every problem of the line is returned, located by field; `raw` is
 * the line as parsed JSON (its key order as written), for a caller that stores the unit verbatim.
 */
export function checkGoldLine(source: string): { ok: true; line: GoldLine; raw: { unit: unknown } } | { ok: false; issues: GoldLineIssue[] } {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    return { ok: false, issues: [{ field: "(line)", expected: "one JSON object", message: `not JSON: ${(error as Error).message}` }] };
  }
  const parsed = GoldLineSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      issues: locateIssues(parsed.error.issues, 0, (path) => path.map(String).join(".")).map(({ field, expected, message }) => ({ field, expected, message })),
    };
  const line = parsed.data as unknown as GoldLine;
  if (viewDigest(line.unit.view) !== line.unit.viewDigest)
    return { ok: false, issues: [{ field: "unit.viewDigest", expected: "the sha256 of the unit's compact view", message: "does not match the view" }] };
  if (line.label.viewDigest !== line.unit.viewDigest)
    return { ok: false, issues: [{ field: "label.viewDigest", expected: "the unit's viewDigest", message: "names another view than the unit's" }] };
  return { ok: true, line, raw: value as { unit: unknown } };
}

/** Parses a gold file: every line checked, every problem reported with its line and field. */
export function parseGold(text: string): { lines: GoldLine[]; errors: GoldParseError[] } {
  const lines: GoldLine[] = [];
  const errors: GoldParseError[] = [];
  text.split("\n").forEach((raw, i) => {
    if (!raw.trim()) return;
    const checked = checkGoldLine(raw);
    if (checked.ok) lines.push(checked.line);
    else
      for (const issue of checked.issues) errors.push({ line: i + 1, message: issue.field === "(line)" ? issue.message : `${issue.field}: ${issue.message}` });
  });
  return { lines, errors };
}

export type { ViewVerdict };
