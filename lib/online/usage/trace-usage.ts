import type { FormatId, Session } from "../../trace/model";
import type { UsageRow } from "./schema";

/** Formats whose `inputTokens` is Anthropic's `input_tokens`: the prompt minus cache reads and writes. */
const ANTHROPIC_STYLE: ReadonlySet<FormatId> = new Set(["claude_code_jsonl", "anthropic_messages"]);

export interface TraceUsageOptions {
  /** The account the session's traffic belongs to (an uploader, a user e-mail). */
  account: string;
  group?: string;
  surface?: string;
}

/**
 * Provider usage recorded inside a trace (Claude Code, Codex, mini-swe-agent… keep it per model
 * call on the message the call produced) as usage rows, so uploaded traces can serve as traffic.
 * Prompts are normalised to the whole-prompt convention of `UsageRow`: for Anthropic-style formats
 * `input + cache read + cache write`, for OpenAI-style formats the reported prompt as is. Calls
 * without a timestamp (on the message or the session) cannot be placed on the hourly curve and
 * are returned in `skipped`.
 */
export function sessionUsageRows(session: Session, options: TraceUsageOptions): { rows: UsageRow[]; skipped: number } {
  const rows: UsageRow[] = [];
  let skipped = 0;
  const anthropic = ANTHROPIC_STYLE.has(session.format);
  for (const message of session.messages) {
    const usage = message.usage;
    if (!usage || usage.inputTokens === undefined) continue;
    const stamp = message.timestamp ?? session.startedAt;
    const timestamp = stamp === undefined ? Number.NaN : Date.parse(stamp);
    if (!Number.isFinite(timestamp)) {
      skipped++;
      continue;
    }
    const cached = usage.cachedInputTokens ?? 0;
    const write = usage.cacheWriteTokens ?? 0;
    const input = anthropic ? usage.inputTokens + cached + write : Math.max(usage.inputTokens, cached + write);
    rows.push({
      timestamp,
      account: options.account,
      ...(options.group !== undefined ? { group: options.group } : {}),
      ...(options.surface !== undefined ? { surface: options.surface } : {}),
      inputTokens: input,
      cachedInputTokens: cached,
      cacheWriteTokens: write,
      outputTokens: usage.outputTokens ?? 0,
      ...(message.model ? { model: message.model } : {}),
    });
  }
  return { rows, skipped };
}
