import { previewRedaction, redactOptionsOf, type RedactionPreview, type RedactionRules } from "@/lib/redact";
import { archiveKindOf, DEFAULT_MAX_ARCHIVE_RATIO, DEFAULT_RATIO_FLOOR_BYTES } from "@/lib/trace/archive/archive-limits";
import { inspectLogFromEvalZip } from "@/lib/trace/archive/inspect-eval-archive";

/** Findings shown per file before the upload (the rest are counted). */
export const PREVIEW_LIMIT = 200;

/**
 * What the upload would redact from `file`, computed in the browser with lib/redact and the admin's
 * rules before a byte is sent: the file is read as a stream of text (a BOM kept, as the server keeps
 * it, so line 1's offsets agree) and nothing is stored anywhere. A compressed file is previewed as
 * the server will redact it, expanded: gzip through the browser's DecompressionStream (streamed, so
 * nothing large is held), an Inspect `.eval` zip as its JSON log within the server's limits
 * (`maxExpandedBytes`, the upload limit), so a zip bomb fails the preview with the server's message.
 */
export async function previewFile(file: File, rules: RedactionRules, maxExpandedBytes: number): Promise<RedactionPreview> {
  return previewRedaction(textChunks(file, maxExpandedBytes), redactOptionsOf(rules), PREVIEW_LIMIT);
}

async function* textChunks(file: File, maxExpandedBytes: number): AsyncIterable<string> {
  const kind = archiveKindOf(new Uint8Array(await file.slice(0, 4).arrayBuffer()));
  if (kind === "zip") {
    yield inspectLogFromEvalZip(file.name, new Uint8Array(await file.arrayBuffer()), {
      maxExpandedBytes,
      maxRatio: DEFAULT_MAX_ARCHIVE_RATIO,
      ratioFloorBytes: DEFAULT_RATIO_FLOOR_BYTES,
    });
    return;
  }
  const bytes = kind === "gzip" ? file.stream().pipeThrough(new DecompressionStream("gzip")) : file.stream();
  const reader = bytes.pipeThrough(new TextDecoderStream("utf-8", { ignoreBOM: true })).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
