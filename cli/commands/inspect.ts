import { createAnalyzer } from "@/lib/analysis/analyze";
import { FORMAT_IDS, type FormatId } from "@/lib/trace/model";
import { parseTrace } from "@/lib/trace/parse-trace";
import { isTokenizerId } from "@/lib/tokens/tokenizer";
import { sourceFromFile } from "@/server/trace/files/file-source";
import { listTraceFiles } from "@/server/trace/files/list-trace-files";
import { parseCommandArgs, UsageError } from "../args";
import { inspectCommand } from "../usage";

/** The `inspect --json` contract: exactly one object, one entry per file. */
export interface InspectFileReport {
  path: string;
  format: string;
  sessions: number;
  messages: number;
  /** Source records the messages came from (more than `messages` where one message spans several records). */
  records: number;
  toolCalls: number;
  toolResults: number;
  tokens: number;
  nativeCompactions: number;
  errors: { line: number; message: string }[];
}

/** Parses files without touching the database. Exit 0 only when every file parsed without errors. */
export async function runInspect(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, inspectCommand);
  if (positionals.length === 0) throw new UsageError("inspect needs at least one file or directory");
  const format = values.format;
  if (format !== undefined && !(FORMAT_IDS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown --format ${format}; expected one of ${FORMAT_IDS.join(", ")}`);
  }
  if (values.tokenizer !== undefined && !isTokenizerId(values.tokenizer)) {
    throw new UsageError(`unknown --tokenizer ${values.tokenizer}; expected o200k, cl100k, chars4 or chars3`);
  }
  const analyzer = createAnalyzer(values.tokenizer && isTokenizerId(values.tokenizer) ? { tokenizer: values.tokenizer } : {});
  const reports: InspectFileReport[] = [];
  for (const path of await listTraceFiles(positionals)) {
    const parsed = await parseTrace(await sourceFromFile(path), format ? { format: format as FormatId } : {});
    const report: InspectFileReport = {
      path,
      format: parsed.format,
      sessions: parsed.sessions.length,
      messages: 0,
      records: 0,
      toolCalls: 0,
      toolResults: 0,
      tokens: 0,
      nativeCompactions: 0,
      errors: parsed.issues.filter((i) => i.severity === "error").map((i) => ({ line: i.line, message: describe(i) })),
    };
    for (const session of parsed.sessions) {
      const { stats } = analyzer.analyze(session);
      report.messages += stats.messages;
      report.records += stats.records;
      report.toolCalls += stats.toolCalls;
      report.toolResults += stats.toolResults;
      report.tokens += stats.tokens;
      report.nativeCompactions += stats.nativeCompactions;
    }
    reports.push(report);
    if (!values.json) printHuman(report);
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ files: reports })}\n`);
  return reports.every((r) => r.errors.length === 0) ? 0 : 1;
}

function describe(issue: { message: string; field?: string; expected?: string }): string {
  const field = issue.field ? ` (field ${issue.field})` : "";
  const expected = issue.expected ? `; expected ${issue.expected}` : "";
  return `${issue.message}${field}${expected}`;
}

function printHuman(r: InspectFileReport): void {
  const status = r.errors.length === 0 ? "ok " : "ERR";
  console.log(
    `${status} ${r.path}\n    ${r.format}: ${r.sessions} sessions, ${r.messages} messages${r.records !== r.messages ? ` (${r.records} records)` : ""}, ${r.toolCalls} tool calls, ${r.toolResults} results, ${r.tokens.toLocaleString("en-US")} tokens, ${r.nativeCompactions} native compactions`,
  );
  for (const e of r.errors.slice(0, 20)) console.log(`    line ${e.line}: ${e.message}`);
  if (r.errors.length > 20) console.log(`    … ${r.errors.length - 20} more errors`);
}
