import { checkGoldLine, type GoldUnit } from "./gold";
import { appendLabels, type LabelHistoryError } from "../../review/history";
import { ReviewLabelSchema, type ViewVerdictLabel } from "../../review/label-schema";
import { viewVerdictItemId, type ViewVerdictItem } from "../../review/queue/items";
import type { ImportError } from "../../review/transfer/issues";

/**
 * A gold file (gold.ts: one `{unit, label}` per line) read as a calibration
 * queue: each distinct unit is one view-verdict item, each line's label one label version of it.
 * Pure: the caller checks the traces and writes the queue. All or nothing — any problem and no
 * plan — and every problem located by line, field and what was expected:
 * - a line that is not a valid gold line (schema, view digest);
 * - a label about another view than its unit's (session, cut, policy, budget), or with a run id;
 * - a unit id written twice with different content, or two units that are the same view;
 * - label versions that cannot form threads (the same version twice, a missing predecessor, a
 *   thread that changes reviewer or item: lib/review/history.ts).
 * A unit may appear on several lines (one per label version: how an export with people's labels
 * beside the gold ones is written).
 */
export interface GoldImportItem {
  item: ViewVerdictItem;
  /** The unit's JSON as the file wrote it (key order kept, so an export writes it back unchanged). */
  unitJson: string;
  unit: GoldUnit;
  /** First line the unit is on. */
  line: number;
}

export interface GoldImportPlan {
  /** In the order the units first appear (the queue's order). */
  items: GoldImportItem[];
  labels: { label: ViewVerdictLabel; itemKey: string; line: number }[];
}

export function planGoldImport(text: string): { ok: true; plan: GoldImportPlan } | { ok: false; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const items = new Map<string, GoldImportItem>();
  const byItemKey = new Map<string, string>();
  const labels: GoldImportPlan["labels"] = [];
  text.split("\n").forEach((raw, i) => {
    const line = i + 1;
    const source = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (source.trim() === "") return;
    const checked = checkGoldLine(source);
    if (!checked.ok) return void errors.push(...checked.issues.map((issue) => ({ line, ...issue })));
    const { unit, label } = checked.line;
    const mismatch = labelMismatch(unit, label);
    if (mismatch) return void errors.push({ line, ...mismatch });
    const unitJson = JSON.stringify(checked.raw.unit);
    const seen = items.get(unit.id);
    if (seen && seen.unitJson !== unitJson)
      return void errors.push({
        line,
        field: "unit",
        expected: `the same unit as line ${seen.line} (id ${unit.id})`,
        message: `unit ${unit.id} is written differently on line ${seen.line}`,
      });
    const item = seen?.item ?? viewItem(unit);
    const other = byItemKey.get(item.id);
    if (other !== undefined && other !== unit.id)
      return void errors.push({ line, field: "unit.id", expected: "one id per view", message: `unit ${unit.id} is the same view as unit ${other}` });
    byItemKey.set(item.id, unit.id);
    if (!seen) items.set(unit.id, { item, unitJson, unit, line });
    labels.push({ label, itemKey: item.id, line });
  });
  const lineOf = new Map(labels.map((l) => [l.label, l.line]));
  const seenVersion = new Map<string, number>();
  const unique: ViewVerdictLabel[] = [];
  for (const { label, line } of labels) {
    const key = `${label.labelId}\u0000${label.version}`;
    const first = seenVersion.get(key);
    if (first !== undefined)
      errors.push({
        line,
        field: "label.version",
        expected: `a version of ${label.labelId} not already in the file`,
        message: `label ${label.labelId} version ${label.version} is also on line ${first}`,
      });
    else (seenVersion.set(key, line), unique.push(label));
  }
  const ordered = unique.sort((a, b) => (a.labelId < b.labelId ? -1 : a.labelId > b.labelId ? 1 : a.version - b.version));
  appendLabels(new Map(), ordered, (label, error) =>
    errors.push({
      line: lineOf.get(label as ViewVerdictLabel)!,
      field: `label.${fieldFor(error.code)}`,
      expected: expectedFor(error.code),
      message: error.message,
    }),
  );
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => a.line - b.line) };
  if (items.size === 0)
    return { ok: false, errors: [{ line: 1, field: "(file)", expected: "at least one gold line", message: "the file holds no gold unit" }] };
  return { ok: true, plan: { items: [...items.values()], labels } };
}

/** The queue item of a unit: named like its labels name it (`itemIdForLabel`). */
export function viewItem(unit: GoldUnit): ViewVerdictItem {
  const ref = { sessionId: unit.sessionId, cut: unit.cut };
  return {
    id: viewVerdictItemId(ref, unit.policy, unit.budget ?? undefined, unit.viewDigest),
    queue: "view_verdict",
    ref,
    policy: unit.policy,
    ...(unit.budget !== null ? { budget: unit.budget } : {}),
    viewDigest: unit.viewDigest,
    unitId: unit.id,
    sidecars: unit.sidecars.map((s) => s.digest),
  };
}

/**
 * A gold file of a calibration queue: for each item in order, each of its label versions (gold
 * and people's, in thread order) on one line with the unit as imported. The label is in its
 * canonical form (the schema's key order, as the review JSONL export writes it), so importing a
 * gold file and exporting it gives the same lines back.
 */
export function exportGold(entries: readonly { unitJson: string; labels: readonly ViewVerdictLabel[] }[]): string {
  return entries
    .flatMap(({ unitJson, labels }) => labels.map((label) => `{"unit":${unitJson},"label":${JSON.stringify(ReviewLabelSchema.parse(label))}}\n`))
    .join("");
}

function labelMismatch(unit: GoldUnit, label: ViewVerdictLabel): Omit<ImportError, "line"> | undefined {
  if (label.ref.runId !== undefined)
    return { field: "label.ref.runId", expected: "no run id (a gold unit is not from an evaluation run)", message: `names run ${label.ref.runId}` };
  if (label.ref.sessionId !== unit.sessionId)
    return { field: "label.ref.sessionId", expected: `the unit's session ${unit.sessionId}`, message: `names session ${label.ref.sessionId}` };
  if (label.ref.cut !== unit.cut) return { field: "label.ref.cut", expected: `the unit's cut ${unit.cut}`, message: `names cut ${label.ref.cut}` };
  if (label.policy !== unit.policy) return { field: "label.policy", expected: `the unit's policy ${unit.policy}`, message: `names policy ${label.policy}` };
  if ((label.budget ?? null) !== unit.budget)
    return {
      field: "label.budget",
      expected: unit.budget === null ? "no budget (the unit has none)" : `the unit's budget ${unit.budget}`,
      message: `names budget ${label.budget ?? "none"}`,
    };
  return undefined;
}

function fieldFor(code: LabelHistoryError["code"]): string {
  return code === "changed-thread" ? "labelId" : code === "duplicate-version" ? "version" : "supersedes";
}

function expectedFor(code: LabelHistoryError["code"]): string {
  if (code === "missing-previous") return "the superseded version earlier in the file";
  if (code === "changed-thread") return "the same reviewer and view as the earlier versions, dated no earlier";
  return "a new version";
}
