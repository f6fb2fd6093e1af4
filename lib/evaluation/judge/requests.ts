import type { Message } from "../../trace/model";

/**
 * A real user request as the judge reads a trace: a user message that says something (tool
 * results arrive as role "tool"), not a harness-injected meta message. The judge keeps its own
 * definition rather than the object index's, so nothing a policy or planner reads shapes it.
 */
export function isUserRequest(message: Message): boolean {
  if (message.role !== "user" || message.meta?.meta === true) return false;
  return message.parts.some((p) => p.type === "text" || p.type === "image" || p.type === "other");
}
