import { z } from "zod";
import type { CutChoice } from "@/lib/compaction/policies/select-cut";
import type { ParamValue, PolicyFamily, PolicyParams } from "@/lib/compaction/policies/types";
import type { ActionKind, PolicyAction, RejectedAction } from "@/lib/compaction/projection/types";
import type { PartType, Role } from "@/lib/trace/model";

/**
 * Request schema and response bodies of the compaction replay API (`POST /api/sessions/[id]/compact`,
 * `GET /api/policies`, `GET /api/sidecars/[sha]`), shared by the route handlers and the studio's
 * client components (types only on the client side). JSON field names are a public contract.
 */

const ParamValueSchema = z.union([z.number(), z.string().max(10_000), z.boolean()]);

/** `POST /api/sessions/[id]/compact`: which policy, at which cut and window, with which parameters. */
export const CompactRequestSchema = z
  .object({
    policy: z.string().trim().min(1, "policy is required").max(100),
    cut: z.number().int("must be an integer").min(1, "must be ≥ 1").optional(),
    window: z.number().int("must be an integer").min(1, "must be ≥ 1").max(1_000_000_000).optional(),
    params: z.record(z.string().min(1).max(100), ParamValueSchema).optional(),
  })
  .strict();
export type CompactRequest = z.infer<typeof CompactRequestSchema>;

/** A policy as the studio lists it. */
export interface PolicyInfo {
  id: string;
  family: PolicyFamily;
  source: string;
  description: string;
  params: { name: string; default: ParamValue; description: string }[];
}

/** A safe cut point and the tokens of the prefix it leaves (what the slider snaps to). */
export interface SafeCut {
  cut: number;
  tokens: number;
}

/**
 * One part of the projected view. `action` is absent when the part is exactly the original one;
 * then `text` may be a preview (`truncated`) and the full text is the original part at `origin`.
 */
export interface ProjectedPart {
  type: PartType;
  origin?: { message: number; part: number };
  action?: ActionKind;
  objectId?: string;
  /** A control-plane reminder the harness appended (fold recovery pointer), not trace content. */
  reminder?: boolean;
  /** Tool name (calls and results), call id, error flag, kind of an `other` part. */
  name?: string;
  callId?: string;
  isError?: boolean;
  otherKind?: string;
  text: string;
  truncated: boolean;
  /** Length (UTF-16 code units) and lines of the full text. */
  length: number;
  lines: number;
  /** Digests of the sidecars this part points to (fold pointers, spill references). */
  sidecars?: string[];
}

export interface ProjectedMessage {
  role: Role;
  /** Source message index, or what the harness inserted. */
  origin: number | "summary" | "reminder";
  tokens: number;
  parts: ProjectedPart[];
}

/** What happened to one part of the original prefix, and the action target responsible. */
export interface PartMark {
  action: ActionKind;
  target?: string;
}

/** One message of the original prefix: its role, tokens and the fate of each part. */
export interface PrefixMark {
  role: Role;
  tokens: number;
  parts: PartMark[];
}

export interface SidecarRef {
  target: string;
  sha256: string;
  bytes: number;
}

/** A policy run as the studio shows it: the PolicyResult without sidecar payloads, view slimmed. */
export interface CompactRun {
  policy: string;
  params: PolicyParams;
  cut: number;
  window: number;
  tokensBefore: number;
  tokensAfter: number;
  pruneRate: number;
  actions: PolicyAction[];
  rejected: RejectedAction[];
  summary?: string;
  tailStart?: number;
  view: ProjectedMessage[];
  /** Per original message 0..cut-1. */
  marks: PrefixMark[];
  sidecars: SidecarRef[];
  log: string[];
  details?: Record<string, unknown>;
}

export interface CompactData {
  result: CompactRun;
  choice: CutChoice;
  messageCount: number;
  safeCuts: SafeCut[];
}

export type CompactErrorCode = "unauthenticated" | "forbidden" | "invalid_request" | "invalid_params" | "planner_unavailable" | "not_found" | "internal";

export type CompactResponse = { ok: true; data: CompactData } | { ok: false; code: CompactErrorCode; message: string; fieldErrors?: Record<string, string[]> };

/**
 * A compaction that calls the LLM runs as a job (lib/compaction/policies/needs-llm.ts): `POST
 * /api/sessions/[id]/compact` answers 202 with the queued state, and `GET
 * /api/sessions/[id]/compact/jobs/[jobId]` answers the job's state — queued or running (with the
 * attempts so far), done with the very `data` the synchronous answer carries, or failed with the
 * code and message the synchronous answer would have had.
 */
export type CompactJobResponse =
  | { ok: true; jobId: string; status: "queued" | "running"; attempts: number }
  | { ok: true; jobId: string; status: "done"; data: CompactData }
  | { ok: false; jobId: string; status: "failed"; code: CompactErrorCode; message: string };
export type PoliciesResponse = { ok: true; data: PolicyInfo[] } | { ok: false; code: CompactErrorCode; message: string };
