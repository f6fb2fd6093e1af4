import { z } from "zod";
import { asText, isRecord, str } from "../json-lines";
import type { Part } from "../model";
import { base64Bytes } from "./claude-code-blocks";

/**
 * The Gemini API's `Part` (`@google/genai`), shared by the Gemini CLI chat recordings (message
 * `content`, tool-call `result`) and raw `Content[]` histories: `{text, thought?}`,
 * `{functionCall{name, args, id?}}`, `{functionResponse{name, response, id?}}`, `{inlineData{mimeType,
 * data}}`, `{fileData{mimeType, fileUri}}`, `{executableCode}`, `{codeExecutionResult}`, each possibly
 * with an opaque `thoughtSignature`. Gemini CLI also writes a bare string where a part list goes.
 */
export const GeminiPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: z.looseObject({ name: z.string().min(1), args: z.unknown().optional(), id: z.string().nullish() }).optional(),
  functionResponse: z.looseObject({ name: z.string().nullish(), response: z.unknown().optional(), id: z.string().nullish() }).optional(),
  inlineData: z.looseObject({ mimeType: z.string().nullish(), data: z.string().nullish() }).optional(),
  fileData: z.looseObject({ mimeType: z.string().nullish(), fileUri: z.string().nullish() }).optional(),
});
export type GeminiPart = z.infer<typeof GeminiPartSchema>;

/** `PartListUnion`: a string, one part, or a list of strings and parts. */
export const GeminiPartListSchema = z.union([z.string(), GeminiPartSchema, z.array(z.union([z.string(), GeminiPartSchema]))]);
export type GeminiPartList = z.infer<typeof GeminiPartListSchema>;

/** A `PartListUnion` as a list of parts (a bare string is one text part; nothing is no part). */
export function partList(value: GeminiPartList | null | undefined): GeminiPart[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((p) => (typeof p === "string" ? { text: p } : p));
}

/**
 * One part that is not a function call or response, as a Tracefold part: text (reasoning when
 * `thought`), images as size-only placeholders (the base64 payload is not kept), anything else as
 * an `other` part naming its kind. Undefined for a part with nothing to show (a bare signature).
 */
export function contentPart(part: GeminiPart): Part | undefined {
  if (part.text !== undefined) {
    if (!part.text && !part.thought) return undefined;
    return part.thought ? { type: "reasoning", text: part.text } : { type: "text", text: part.text };
  }
  if (part.inlineData) {
    const mediaType = part.inlineData.mimeType ?? undefined;
    const data = part.inlineData.data ?? undefined;
    if (mediaType?.startsWith("image/") || !mediaType)
      return { type: "image", ...(mediaType ? { mediaType } : {}), ...(data ? { bytes: base64Bytes(data) } : {}) };
    return { type: "other", kind: "inline_data", text: `[${mediaType}${data ? `, ${base64Bytes(data)} bytes` : ""}]` };
  }
  if (part.fileData) return { type: "other", kind: "file_data", text: part.fileData.fileUri ?? "" };
  const known = Object.keys(part).find((k) => k !== "thoughtSignature" && k !== "thought");
  if (!known) return undefined;
  return { type: "other", kind: known, text: asText((part as Record<string, unknown>)[known]) };
}

/**
 * What a tool saw returned: `response.output` (Gemini CLI) or `response.error` (then an error), else
 * the response as JSON; a non-response part of a result (an image a tool returned) as a placeholder.
 */
export function responseContent(parts: GeminiPart[]): { content: string; isError: boolean } {
  const texts: string[] = [];
  let isError = false;
  for (const part of parts) {
    if (part.functionResponse) {
      const response = part.functionResponse.response;
      if (isRecord(response) && "error" in response && response.error !== undefined && response.error !== null) {
        isError = true;
        texts.push(asText(response.error));
      } else texts.push(isRecord(response) && "output" in response ? asText(response.output) : asText(response));
      continue;
    }
    const other = contentPart(part);
    if (other?.type === "text" || other?.type === "reasoning") texts.push(other.text);
    else if (other?.type === "image") texts.push(`[image${other.bytes !== undefined ? `, ${other.bytes} bytes` : ""}]`);
    else if (other?.type === "other") texts.push(other.text ?? `[${other.kind}]`);
  }
  return { content: texts.join("\n"), isError };
}

/** The text of a part list, for titles (`displayContent` is what the user typed). */
export function plainText(parts: GeminiPart[]): string {
  return parts.map((p) => str(p.text) ?? "").join("");
}
