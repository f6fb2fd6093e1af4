import { sha256Hex } from "../util/sha256";
import type { Session } from "./model";

/**
 * The ids of an OTLP export (export-otlp-json.ts), in a file of their own because the review-label
 * export (lib/review/transfer/span-annotations.ts) must point at the very same spans without
 * building the spans themselves.
 *
 * Ids are derived, never random: the same session exported twice gives the same trace and span
 * ids, so labels exported later still annotate spans a backend received earlier. `seed` is what
 * makes one stored session distinct (the studio passes its database id; two uploads of one file
 * share an external id but not a seed). Hex, lowercase, 32 digits for a trace and 16 for a span
 * (OTLP JSON's encoding; SHA-256 is never all zeros in practice, which OTLP would reject).
 */
export function otlpTraceId(seed: string): string {
  return sha256Hex(`tracefold-trace:${seed}`).slice(0, 32);
}

/** The span id of one planned span: `agent`, `chat:<message index>`, `chat:end`, `tool:<message>:<part>`. */
export function otlpSpanId(seed: string, key: string): string {
  return sha256Hex(`tracefold-span:${seed}:${key}`).slice(0, 16);
}

/** The root `invoke_agent` span every other span of the export is a child of. */
export function otlpAgentSpanId(seed: string): string {
  return otlpSpanId(seed, "agent");
}

/** The `chat` span whose output is `messages[index]` (an assistant message). */
export function otlpChatSpanId(seed: string, index: number): string {
  return otlpSpanId(seed, `chat:${index}`);
}

/**
 * The span a replay cut corresponds to: the model call made right after the prefix, i.e. the
 * `chat` span of the first assistant message at or after `cut`. A cut past the last assistant
 * message has no such call; the root span stands for the session then.
 */
export function otlpSpanIdAtCut(session: Pick<Session, "messages">, cut: number, seed: string): string {
  const next = session.messages.find((m) => m.index >= cut && m.role === "assistant");
  return next ? otlpChatSpanId(seed, next.index) : otlpAgentSpanId(seed);
}
