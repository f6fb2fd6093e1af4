import { z } from "zod";
import { GoldLineSchema } from "../lib/evaluation/calibration/gold";
import { EvalReportSchema } from "../lib/evaluation/aggregate/report-contract";
import { ViewsLineSchema } from "../lib/evaluation/views/schema";

/** The documented contracts: file under docs/, title, and the zod schema it is generated from. */
export interface DocSchema {
  file: string;
  title: string;
  description: string;
  schema: z.ZodType;
}

export const DOC_SCHEMAS: readonly DocSchema[] = [
  {
    file: "docs/eval-report.schema.json",
    title: "tracefold eval --json",
    description: "The one JSON object `tracefold eval … --json` prints (docs/cli.md; README: Replay protocol).",
    schema: EvalReportSchema,
  },
  {
    file: "docs/views.schema.json",
    title: "tracefold eval --export-views FILE.jsonl (one line)",
    description:
      "One line of a views export: a cut (prefix and real future), a sidecar payload, or a judged unit (view, sidecars, per-dependency verdicts). docs/views.md explains how to read it.",
    schema: ViewsLineSchema,
  },
  {
    file: "docs/judge-gold.schema.json",
    title: "Judge gold set (one line)",
    description: "One labelled unit of the judge's gold set (gold/judge-gold.jsonl): a stored view of a real cut and a person's view_verdict label.",
    schema: GoldLineSchema,
  },
];

export function renderSchema(doc: DocSchema): string {
  const generated = z.toJSONSchema(doc.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return `${JSON.stringify({ $schema: generated.$schema, title: doc.title, description: doc.description, ...generated }, null, 2)}\n`;
}
