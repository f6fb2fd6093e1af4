/**
 * Finds the one JSON object in a model's answer. Accepted wrappers: the bare object (the
 * contract's format), a single ``` / ```json fenced block, or one balanced {...} inside prose.
 * Anything else is an error that says what was found, so a retry prompt can quote it.
 */
export type ExtractError =
  | { code: "empty"; message: string }
  | { code: "no_json"; message: string }
  | { code: "multiple_json"; message: string }
  | { code: "invalid_json"; message: string };

export type Extracted = { ok: true; value: unknown; wrapped: boolean } | { ok: false; error: ExtractError };

export function extractJsonObject(text: string): Extracted {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, error: { code: "empty", message: "the answer is empty" } };
  if (trimmed.startsWith("{")) {
    const direct = tryParse(trimmed);
    if (direct.ok) return { ok: true, value: direct.value, wrapped: false };
  }
  const fences = [...trimmed.matchAll(/```[a-zA-Z]*\s*\n([\s\S]*?)```/g)].map((m) => m[1]!.trim()).filter((body) => body.startsWith("{"));
  if (fences.length > 1)
    return { ok: false, error: { code: "multiple_json", message: `the answer has ${fences.length} fenced JSON blocks; expected exactly one object` } };
  if (fences.length === 1) return finish(fences[0]!, true);
  const objects = balancedObjects(trimmed);
  if (objects.length === 0)
    return { ok: false, error: { code: "no_json", message: "the answer contains no JSON object (expected one {...} object and nothing else)" } };
  if (objects.length > 1)
    return { ok: false, error: { code: "multiple_json", message: `the answer has ${objects.length} separate JSON objects; expected exactly one` } };
  return finish(objects[0]!, objects[0]!.length !== trimmed.length);
}

function finish(candidate: string, wrapped: boolean): Extracted {
  const parsed = tryParse(candidate);
  if (parsed.ok) return { ok: true, value: parsed.value, wrapped };
  return { ok: false, error: { code: "invalid_json", message: `the JSON object does not parse: ${parsed.message}` } };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/** Top-level {...} spans of `text`, string- and escape-aware. An unclosed object runs to the end. */
function balancedObjects(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"' && depth > 0) inString = true;
    else if (ch === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === "}" && depth > 0) {
      depth--;
      if (depth === 0) out.push(text.slice(start, i + 1));
    }
  }
  if (depth > 0 && start >= 0) out.push(text.slice(start));
  return out;
}
