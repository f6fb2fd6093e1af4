/**
 * Assembles the judge's gold set from sampled units (scripts/gold/sample.ts → candidates.jsonl) and
 * the labellers' files (docs/gold-labelling.md: one `{unit, verdict, restores?, lost?, note}` per
 * line): each labelled unit becomes one line `{unit, label}` with a `view_verdict` review label
 * (lib/review/label-schema.ts), validated, sorted by unit id.
 *
 *   npx tsx scripts/gold/assemble.ts --candidates /tmp/gold/candidates.jsonl --labels DIR --out gold/judge-gold.jsonl
 *
 * A label for an unknown unit, two labels for one unit, or a label that does not validate stops
 * the assembly with the file and line; units without a label are listed and left out.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { GoldLineSchema, type GoldUnit } from "../../lib/evaluation/calibration/gold";
import { VIEW_VERDICTS } from "../../lib/review/label-schema";
import { FAILURE_CATEGORY_IDS, type FailureCategory } from "../../lib/scenario/failure-categories";

const LabellerLineSchema = z.strictObject({
  unit: z.string().regex(/^g-[0-9a-f]{10}$/),
  verdict: z.enum(VIEW_VERDICTS),
  restores: z.array(z.string().regex(/^[0-9a-f]{12,64}$/)).optional(),
  lost: z.array(z.strictObject({ value: z.string().min(1), category: z.enum(FAILURE_CATEGORY_IDS as [FailureCategory, ...FailureCategory[]]), usedAt: z.number().int().nonnegative().optional() })).optional(),
  note: z.string().min(1),
});

function arg(name: string): string {
  const i = process.argv.indexOf(name);
  if (i < 0) throw new Error(`missing ${name}`);
  return process.argv[i + 1]!;
}

function main(): void {
  const candidates = new Map<string, GoldUnit>();
  for (const line of readFileSync(arg("--candidates"), "utf8").split("\n").filter(Boolean)) {
    const unit = JSON.parse(line) as GoldUnit;
    candidates.set(unit.id, unit);
  }
  const dir = arg("--labels");
  const labelled = new Map<string, { line: string; where: string; reviewer: string; data: z.infer<typeof LabellerLineSchema> }>();
  const problems: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
    const reviewer = `gold:${file.replace(/\.jsonl$/, "")}`;
    readFileSync(join(dir, file), "utf8").split("\n").forEach((raw, i) => {
      if (!raw.trim()) return;
      const where = `${file}:${i + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (error) {
        problems.push(`${where}: not JSON (${(error as Error).message})`);
        return;
      }
      const parsed = LabellerLineSchema.safeParse(value);
      if (!parsed.success) {
        problems.push(...parsed.error.issues.map((x) => `${where}: ${x.path.join(".")}: ${x.message}`));
        return;
      }
      if (!candidates.has(parsed.data.unit)) problems.push(`${where}: unknown unit ${parsed.data.unit}`);
      else if (labelled.has(parsed.data.unit)) problems.push(`${where}: ${parsed.data.unit} is also labelled at ${labelled.get(parsed.data.unit)!.where}`);
      else labelled.set(parsed.data.unit, { line: raw, where, reviewer, data: parsed.data });
    });
  }
  const out: string[] = [];
  for (const [id, { where, reviewer, data }] of [...labelled].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const unit = candidates.get(id)!;
    const label = {
      kind: "view_verdict",
      labelId: `gold-${id}`,
      version: 1,
      supersedes: null,
      reviewer,
      createdAt: new Date(Date.UTC(2026, 10, 26)).toISOString(),
      comment: data.note,
      ref: { sessionId: unit.sessionId, cut: unit.cut },
      policy: unit.policy,
      ...(unit.budget ? { budget: unit.budget } : {}),
      viewDigest: unit.viewDigest,
      verdict: data.verdict,
      ...(data.restores ? { restores: data.restores } : {}),
      ...(data.lost ? { lost: data.lost } : {}),
    };
    const line = { unit, label };
    const parsed = GoldLineSchema.safeParse(line);
    if (!parsed.success) problems.push(...parsed.error.issues.map((x) => `${where}: ${x.path.join(".")}: ${x.message}`));
    else out.push(JSON.stringify(line));
  }
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  const missing = [...candidates.keys()].filter((id) => !labelled.has(id));
  if (missing.length > 0) console.error(`${missing.length} units without a label, left out: ${missing.join(", ")}`);
  writeFileSync(arg("--out"), `${out.join("\n")}\n`);
  console.error(`${out.length} gold units → ${arg("--out")}`);
}

main();
