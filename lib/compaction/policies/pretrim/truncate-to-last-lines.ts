import type { Sidecar } from "../../projection/types";
import { countLines, keepLastLines, sidecarRef } from "./text";
import { partContent, rewritePart, spill, type PretrimStep, type TrimEdit, type TrimItem } from "./types";

export interface TruncateToLastLinesOptions {
  /** Lines kept from the end of each tool output ("last few dozen lines"; Gemini CLI's docstring says 30). */
  lines: number;
  /** Cap on the kept tail in characters, for one-line blobs (minified JSON, base64). */
  maxChars: number;
}

export const DEFAULT_LAST_LINES: TruncateToLastLinesOptions = { lines: 30, maxChars: 8_000 };

/**
 * Seed 001 pre-trim move 3: "truncating individual tool outputs to their last few dozen lines, with
 * the original spilled to a temp file". The spill is a content-addressed sidecar whose digest the
 * truncated text names, so the original stays recoverable byte for byte.
 */
export function truncateToolOutputsToLastLines(options: TruncateToLastLinesOptions = DEFAULT_LAST_LINES): PretrimStep {
  return (items, tokenizer) => {
    const edits: TrimEdit[] = [];
    const sidecars: Sidecar[] = [];
    const out: TrimItem[] = items.map((item) => {
      let current = item;
      for (const [p] of item.results) {
        const content = partContent(current.message.parts[p]!);
        if (content.length <= options.maxChars && countLines(content) <= options.lines) continue;
        const sidecar = spill(item.results.get(p)!.id, content);
        const text = keepLastLines(content, options.lines, options.maxChars, sidecarRef(sidecar.sha256));
        if (text === content) continue;
        const rewritten = rewritePart(current, p, text, tokenizer, "pretrim/truncate-tool-outputs-to-last-lines");
        current = rewritten.item;
        edits.push(rewritten.edit);
        sidecars.push(sidecar);
      }
      return current;
    });
    const saved = edits.reduce((sum, e) => sum + e.tokensBefore - e.tokensAfter, 0);
    return {
      items: out,
      edits,
      sidecars,
      log: [
        `pre-trim truncate-tool-outputs-to-last-lines: ${edits.length} tool outputs cut to their last ${options.lines} lines (${saved} tokens), originals spilled to sidecars`,
      ],
    };
  };
}
