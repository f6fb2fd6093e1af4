import { z } from "zod";
import { IssueList, type Importer } from "../importer";
import { hasJsonKey, str } from "../json-lines";
import type { ParseResult, Session } from "../model";
import { SessionBuilder, uniqueSessionId } from "../session-builder";
import type { TraceSource } from "../source";
import { readValidatedDocument } from "../validated-document";
import { reportZodIssues } from "../zod-issues";
import { addInspectMessage, resolveAttachments } from "./inspect-messages";

/**
 * Inspect AI evaluation logs (UK AISI `inspect_ai`). The JSON log is one object
 * `{version, status, eval, plan, results, stats, samples[], reductions}`; a `.eval` log is the same
 * content split across a zip (`header.json` + `samples/*.json`), which the server expands into this
 * JSON shape before parsing (lib/trace/archive/inspect-eval-archive.ts), so both import alike.
 * Each sample (one epoch of one dataset item) is a session whose id is `<sample id>-epoch-<n>`;
 * its `messages` (system/user/assistant/tool, see inspect-messages.ts) are the conversation.
 * Sample `attachments` (`attachment://<hash>` references Inspect uses to dedupe long content) are
 * resolved before the messages are read.
 */
export const inspectEvalLogImporter: Importer = {
  format: "inspect_eval_log",
  label: "Inspect AI eval logs",
  /** An object with `version` and an `eval` header naming its task and run; a `.eval` name adds to it. */
  detect(name, head) {
    if (!/^\uFEFF?\s*\{/.test(head) || !hasJsonKey(head, "eval") || !hasJsonKey(head, "version")) return 0;
    const marks = [hasJsonKey(head, "task") && hasJsonKey(head, "task_id"), hasJsonKey(head, "run_id") || hasJsonKey(head, "plan"), /\.eval$/i.test(name)];
    return 0.5 + [0.2, 0.15, 0.1].reduce((sum, weight, i) => sum + (marks[i] ? weight : 0), 0);
  },
  parse: parseInspect,
};

const SHAPE = "{version, status, eval, samples[]}";

const DocumentSchema = z.looseObject({
  version: z.number().nullish(),
  eval: z.looseObject({ task: z.string().nullish(), model: z.string().nullish(), created: z.string().nullish(), run_id: z.string().nullish() }),
  samples: z.array(z.unknown()).nullish(),
});
type Document = z.infer<typeof DocumentSchema>;
const SampleSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  epoch: z.number().nullish(),
  messages: z.array(z.unknown()),
  attachments: z.record(z.string(), z.string()).nullish(),
  error: z.unknown().nullish(),
});

async function parseInspect(source: TraceSource): Promise<ParseResult> {
  const issues = new IssueList(source.name);
  // Depth 4 locates `samples[i].messages[j]`.
  const doc = await readValidatedDocument(source, issues, DocumentSchema, {
    depth: 4,
    expected: "an Inspect eval log object",
    invalid: "not an Inspect eval log",
    shape: SHAPE,
  });
  const sessions: Session[] = [];
  if (doc && !doc.data.samples?.length) {
    issues.error(1, "the eval log holds no samples (a header-only log, or samples not yet written)", "samples", "at least one sample with messages");
  } else if (doc) {
    const used = new Set<string>();
    doc.data.samples!.forEach((raw, i) => {
      const session = parseSample(raw, `samples[${i}]`, doc.data, { issues, file: source.name, lineOf: doc.lineOf, used });
      if (session) sessions.push(session);
    });
  }
  return { format: "inspect_eval_log", sessions, issues: issues.items };
}

interface Context {
  issues: IssueList;
  file: string;
  lineOf: (field: string) => number;
  used: Set<string>;
}

function parseSample(raw: unknown, field: string, document: Document, context: Context): Session | undefined {
  const parsed = SampleSchema.safeParse(raw);
  if (!parsed.success) {
    reportZodIssues(context.issues, parsed.error, { field, lineOf: context.lineOf }, "sample skipped");
    return undefined;
  }
  const sample = parsed.data;
  const epoch = sample.epoch ?? 1;
  const builder = new SessionBuilder(uniqueSessionId(`${sample.id}-epoch-${epoch}`, context.used), "inspect_eval_log");
  const model = document.eval.model ?? undefined;
  const messages = resolveAttachments(sample.messages, sample.attachments ?? {});
  messages.forEach((message, j) => {
    const where = { file: context.file, line: context.lineOf(`${field}.messages[${j}]`), field: `${field}.messages[${j}]` };
    addInspectMessage(builder, message, where, context.issues, model);
  });
  const meta: Record<string, string | number | boolean> = { sampleId: String(sample.id), epoch };
  if (document.eval.task) meta.task = document.eval.task;
  if (sample.error) meta.error = true;
  const startedAt = str(document.eval.created);
  return builder.build({ title: `${document.eval.task ?? "inspect"} #${sample.id}`, ...(startedAt ? { startedAt } : {}), meta });
}
