/**
 * The raw text a part carries, with nothing added: text and reasoning bodies, tool-call arguments,
 * tool-result content, an `other` part's text; empty for images. Structural, so the trace model's
 * parts, projected view parts and the viewer's part views all share this one definition (token
 * counting uses `partText` in lib/tokens instead, which also counts the tool name and placeholders).
 */
export type PartWithBody =
  | { type: "text" | "reasoning"; text: string }
  | { type: "tool_call"; arguments: string }
  | { type: "tool_result"; content: string }
  | { type: "other"; text?: string }
  | { type: "image" };

export function partBody(part: PartWithBody): string {
  switch (part.type) {
    case "text":
    case "reasoning":
      return part.text;
    case "tool_call":
      return part.arguments;
    case "tool_result":
      return part.content;
    case "other":
      return part.text ?? "";
    case "image":
      return "";
  }
}
