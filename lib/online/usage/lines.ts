/**
 * Splits a stream of text chunks into numbered lines (LF or CRLF; a chunk may end mid-line or
 * between CR and LF). Memory is bounded by the longest line. Used for JSONL usage logs.
 */
export async function* splitLines(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<{ line: number; text: string }> {
  let rest = "";
  let line = 0;
  let first = true;
  for await (let chunk of chunks) {
    if (first && chunk.length > 0) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    rest += chunk;
    let start = 0;
    for (let nl = rest.indexOf("\n", start); nl !== -1; nl = rest.indexOf("\n", start)) {
      line++;
      const end = nl > start && rest.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      yield { line, text: rest.slice(start, end) };
      start = nl + 1;
    }
    rest = rest.slice(start);
  }
  if (rest.length > 0) yield { line: line + 1, text: rest.endsWith("\r") ? rest.slice(0, -1) : rest };
}
