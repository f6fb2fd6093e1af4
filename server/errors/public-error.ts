import { randomUUID } from "node:crypto";
import { PolicyParamError } from "@/lib/compaction/policies/params";
import { PlannerUnavailableError } from "@/lib/compaction/policies/self-gc/choose-planner";
import { JudgeAnswerError } from "@/lib/evaluation/runner/evaluate-cut-llm";
import { LlmConfigError } from "../llm/config";
import { LlmError } from "../llm/errors";
import { SecretBoxError } from "../security/secret-box";
import { BlobNotFoundError } from "../storage/blob-key";

/**
 * A failure whose message is written for the person who caused it and is safe to show as is:
 * what server code throws (instead of a plain Error) when the reason is the user's to act on.
 */
export class PublicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PublicError";
  }
}

/**
 * The errors whose own messages a user sees: they say what is wrong with the request, the settings
 * or the model endpoint, and never carry a server path, a stack or a secret (the LLM errors redact
 * the key). Everything else — a Node system error naming a file, a database error quoting the code
 * that made the call, a TypeError from a bug, an S3 failure — is internal.
 */
const PUBLIC_ERRORS: readonly (abstract new (...args: never[]) => Error)[] = [
  PublicError,
  PolicyParamError,
  PlannerUnavailableError,
  JudgeAnswerError,
  LlmError,
  LlmConfigError,
  SecretBoxError,
  BlobNotFoundError,
];

export function isPublicError(error: unknown): error is Error {
  return PUBLIC_ERRORS.some((kind) => error instanceof kind);
}

/**
 * The message to show (or store for later showing) for a failure: a public error's own message, or
 * `internal error (ref <id>)` for anything else, after logging the whole error (message, stack,
 * cause) under that id with `context`, so an admin finds it from what the user quotes. Why: an
 * unexpected error's message is written for developers — `ENOENT: no such file or directory,
 * rename '/srv/tracefold/data/sidecars/…'` shows the server's layout and helps no user.
 */
export function publicMessage(error: unknown, context: string): string {
  if (isPublicError(error)) return error.message;
  const ref = randomUUID().slice(0, 8);
  console.error(`${context} [ref ${ref}]:`, error);
  return `internal error (ref ${ref})`;
}
