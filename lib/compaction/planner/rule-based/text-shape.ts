/**
 * Shape tests on tool output text for the planner's action semantics (seed 000): mask only
 * repetitive log-like middles, never sparse evidence such as stack traces, diff hunks or tables
 * (Table 7, evidence-detail loss); recognise failed attempts so they can be pruned once a later
 * rerun succeeded (Table 5, live-state loss).
 */

/**
 * Did this tool result report a failure? The error flag always counts; the return-code and banner
 * heuristics only for tools whose output is not a file body (a file may well contain "Error").
 */
export function looksFailed(content: string, isError: boolean | undefined, tool = "exec"): boolean {
  if (isError) return true;
  if (FILE_BODY_TOOLS.has(tool)) return /^<tool_use_error>/.test(content);
  const head = content.slice(0, 400);
  const code = /<returncode>\s*(-?\d+)\s*<\/returncode>/.exec(head)?.[1] ?? /^Exit code (\d+)/m.exec(head)?.[1];
  if (code !== undefined) return code !== "0";
  return /^(?:Error|error|ERROR)\b|<tool_use_error>|Traceback \(most recent call last\)|command not found|No such file or directory/.test(head);
}

/** Stack traces, diff hunks and tables carry sparse evidence and must not be masked. */
/** Tools whose results are file bodies: never masked (fold them), never read as logs. */
export const FILE_BODY_TOOLS: ReadonlySet<string> = new Set(["read", "write", "edit"]);

export function isSparseEvidence(lines: string[]): boolean {
  let trace = 0;
  let diff = 0;
  let table = 0;
  for (const line of lines) {
    if (/^\s*(?:File ".*", line \d+|at \S+ \(?.*:\d+(?::\d+)?\)?$|\S+\.\w+:\d+:\d*)/.test(line)) trace++;
    if (/^(?:@@ |\+[^+]|-[^-]|diff --git)/.test(line)) diff++;
    if ((line.match(/\|/g)?.length ?? 0) >= 2) table++;
  }
  const n = Math.max(1, lines.length);
  return trace / n > 0.15 || diff / n > 0.3 || table / n > 0.5;
}

/**
 * Log-like: many lines that repeat once numbers, hashes and timings are ignored (test dots,
 * compiler progress, download bars), or lines dominated by progress markers.
 */
export function isRepetitiveLog(content: string, minLines = 24): boolean {
  const lines = content.split("\n").filter((l) => l.trim());
  if (lines.length < minLines || isSparseEvidence(lines)) return false;
  const shapes = new Set<string>();
  let progress = 0;
  for (const line of lines) {
    shapes.add(
      line
        .replace(/[0-9a-f]{6,}/gi, "h")
        .replace(/\d+/g, "0")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, 80),
    );
    if (
      /\d+%|\.{3,}|^(?:Compiling|Downloading|Installing|Collecting|Requirement already|Fetching|Resolving|Building|Generated|Running|\[\d+\/\d+\])|\b(?:PASSED|passed|ok)\b/.test(
        line,
      )
    )
      progress++;
  }
  return shapes.size / lines.length <= 0.5 || progress / lines.length >= 0.6;
}

/** Tool results that carry the user's own words (a rejected tool use with feedback). */
export function carriesUserFeedback(content: string): boolean {
  return /the user (?:doesn't|does not) want|user (?:said|says|rejected|feedback)|the user provided the following reason/i.test(content.slice(0, 600));
}

/**
 * Does a content search (grep, rg, ag, the Grep tool) print source lines — `path:code`, or bare
 * code lines when one file was searched — rather than only paths (`grep -l`, a files-with-matches
 * mode)? Those lines are verbatim source a later edit may copy (Table 7, verbatim-source loss), so
 * such a search is folded when large and kept when small, never pruned. Listings (ls, find, glob)
 * print paths and stay prunable.
 */
export function quotesSourceLines(content: string): boolean {
  for (const raw of content.split("\n")) {
    const line = raw.trim();
    if (!line || line === "--" || /^<\/?[\w-]+>/.test(line) || /^[\w./~-]+(?::\d+)?$/.test(line)) continue;
    return true;
  }
  return false;
}

/** A search over file contents (its output may quote source lines), not a listing of names. */
export function isContentSearch(tool: string | undefined, intent: string): boolean {
  return tool === "grep" || /^(?:grep|egrep|fgrep|rg|ag|git grep)\b/.test(intent);
}
