import { findPolicy, POLICIES } from "@/lib/compaction/policies/registry";
import { parseParamAssignments } from "@/lib/compaction/policies/params";
import { runPolicy } from "@/lib/compaction/policies/run-policy";
import { selectCut } from "@/lib/compaction/policies/select-cut";
import type { PolicyResult } from "@/lib/compaction/policies/types";
import { projectForProviders } from "@/lib/compaction/projection/provider-fixes";
import type { ViewMessage } from "@/lib/compaction/projection/types";
import { createAnalyzer } from "@/lib/analysis/analyze";
import { FORMAT_IDS, type FormatId } from "@/lib/trace/model";
import { parseTrace } from "@/lib/trace/parse-trace";
import { isTokenizerId } from "@/lib/tokens/tokenizer";
import { sourceFromFile } from "@/server/trace/files/file-source";
import { parseCommandArgs, UsageError } from "../args";
import { compactCommand } from "../usage";

/** Runs one policy at one cut of one session and prints the projected view and every decision. */
export async function runCompact(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, compactCommand);
  if (positionals.length !== 1) throw new UsageError("compact takes exactly one trace file");
  const policy = values.policy ? findPolicy(values.policy) : undefined;
  if (!policy) throw new UsageError(`--policy must be one of ${POLICIES.map((p) => p.id).join(", ")}`);
  if (values.format !== undefined && !(FORMAT_IDS as readonly string[]).includes(values.format)) throw new UsageError(`unknown --format ${values.format}`);
  if (values.tokenizer !== undefined && !isTokenizerId(values.tokenizer)) throw new UsageError(`unknown --tokenizer ${values.tokenizer}`);
  const cut = optionalInt(values.cut, "--cut");
  const window = optionalInt(values.window, "--window");
  const params = parseParamAssignments(policy, values.param ?? []);

  const parsed = await parseTrace(await sourceFromFile(positionals[0]!), values.format ? { format: values.format as FormatId } : {});
  const errors = parsed.issues.filter((i) => i.severity === "error");
  if (errors.length > 0 || parsed.sessions.length === 0) {
    for (const e of errors.slice(0, 10)) console.error(`${e.file}:${e.line}: ${e.message}`);
    if (parsed.sessions.length === 0) console.error("no sessions in the file");
    return 1;
  }
  const selector = values.session ?? "0";
  const session = /^\d+$/.test(selector) ? parsed.sessions[Number(selector)] : parsed.sessions.find((s) => s.id === selector);
  if (!session) throw new UsageError(`--session ${selector} not found: the file has ${parsed.sessions.length} sessions (0-based index or session id)`);
  if (cut !== undefined && (cut < 1 || cut > session.messages.length)) throw new UsageError(`--cut must be between 1 and ${session.messages.length}`);

  const analyzer = createAnalyzer(values.tokenizer && isTokenizerId(values.tokenizer) ? { tokenizer: values.tokenizer } : {});
  const { index } = analyzer.analyze(session);
  const tokenizer = analyzer.tokenizerFor(session);
  const choice = selectCut(policy, session, index, tokenizer, { ...(cut !== undefined ? { cut } : {}), ...(window !== undefined ? { window } : {}), params });
  const result = await runPolicy(policy, { session, index, cut: choice.cut, window: choice.window, tokenizer, params });
  if (values.json) process.stdout.write(`${JSON.stringify(toContract(result))}\n`);
  else printHuman(result, choice.note);
  return 0;
}

function optionalInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a positive whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The documented `compact --json` shape (README, issue contract). */
export function toContract(result: PolicyResult) {
  return {
    policy: result.policy,
    session: result.sessionId,
    cut: { index: result.cut, tokens: result.tokensBefore },
    window: result.window,
    before: { tokens: result.tokensBefore },
    after: { tokens: result.tokensAfter },
    prunePct: Math.round(result.pruneRate * 10_000) / 100,
    actions: result.actions.map((a) => ({ target: a.target, action: a.action, reason: a.reason })),
    rejected: result.rejected,
    summary: result.summary ?? null,
    view: result.view.map(contractMessage),
    sidecars: result.sidecars.map((s) => ({ target: s.target, sha256: s.sha256, bytes: s.bytes })),
    providerFixes: projectForProviders(result.view).fixes,
  };
}

function contractMessage(message: ViewMessage) {
  return {
    role: message.role,
    parts: message.parts.map((part) => {
      switch (part.type) {
        case "text":
        case "reasoning":
          return { type: part.type, text: part.text };
        case "tool_call":
          return { type: part.type, id: part.id, name: part.name, text: part.arguments };
        case "tool_result":
          return { type: part.type, callId: part.callId, ...(part.name ? { name: part.name } : {}), text: part.content };
        case "image":
          return { type: part.type };
        case "other":
          return { type: "other", ...(part.text !== undefined ? { text: part.text } : {}) };
      }
    }),
  };
}

function printHuman(result: PolicyResult, note: string): void {
  console.log(`${result.policy} on ${result.sessionId}: ${note}`);
  console.log(
    `  window ${result.window.toLocaleString("en-US")} tokens; prefix ${result.tokensBefore.toLocaleString("en-US")} → ${result.tokensAfter.toLocaleString("en-US")} (pruned ${(result.pruneRate * 100).toFixed(1)}%)`,
  );
  for (const a of result.actions) console.log(`  ${a.action.padEnd(9)} ${a.target.padEnd(28)} ${a.reason}`);
  for (const r of result.rejected) console.log(`  rejected  ${r.target.padEnd(28)} ${r.reason}`);
  for (const line of result.log) console.log(`  · ${line}`);
  const { fixes } = projectForProviders(result.view);
  for (const [provider, notes] of Object.entries(fixes)) for (const note of notes) console.log(`  ${provider} fix: ${note}`);
}
