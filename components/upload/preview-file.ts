import { previewRedaction, redactOptionsOf, type RedactionPreview, type RedactionRules } from "@/lib/redact";

/** Findings shown per file before the upload (the rest are counted). */
export const PREVIEW_LIMIT = 200;

/**
 * What the upload would redact from `file`, computed in the browser with lib/redact and the admin's
 * rules before a byte is sent: the file is read as a stream of text (a BOM kept, as the server keeps
 * it, so line 1's offsets agree) and nothing is stored anywhere.
 */
export async function previewFile(file: File, rules: RedactionRules): Promise<RedactionPreview> {
  return previewRedaction(textChunks(file), redactOptionsOf(rules), PREVIEW_LIMIT);
}

async function* textChunks(file: File): AsyncIterable<string> {
  const reader = file.stream().pipeThrough(new TextDecoderStream("utf-8", { ignoreBOM: true })).getReader();
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
