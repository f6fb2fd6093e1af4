import { z } from "zod";
import { FAILURE_CATEGORY_IDS, type FailureCategory } from "../../scenario/failure-categories";
import type { Part, Role } from "../../trace/model";
import { DEPENDENCY_KINDS, DEPENDENCY_STATUSES } from "../judge/types";
import type { CompactMessage } from "./compact-view";

/**
 * The views export (`tracefold eval … --export-views FILE.jsonl`), a public contract so anyone can
 * audit the judge with their own: generated to docs/views.schema.json (a unit test keeps them
 * equal). One JSON object per line, three kinds:
 * - `cut` — once per (session, cut), before its units: the prefix and the real future as
 *   canonical messages (`index`, `role`, `parts`);
 * - `sidecar` — once per distinct digest in the file, before the first unit that names it: the
 *   exact payload a fold moved out of view (content-addressed: sha256 of the UTF-8 payload);
 * - `unit` — one per (session, cut, policy, budget): the policy's view, the sidecars it left, the
 *   judge's verdict on every dependency and the unit's figures.
 * A unit's view is compact: a part equal to its prefix part is `{"same": {"message", "part"}}`;
 * `expandView` (lib/evaluation/views/compact-view.ts) reads it back. Prefix, future and payloads are
 * written once rather than per unit: over ../shared/traces one line per unit with everything
 * inline would run to gigabytes (each of ~100 units per cut would repeat the whole prefix).
 */
const index = z.number().int().nonnegative();
const PartRefSchema = z.object({ message: index, part: index });

const PartSchema = z.union([
  z.object({ type: z.literal("text"), text: z.string() }).loose(),
  z.object({ type: z.literal("reasoning"), text: z.string() }).loose(),
  z.object({ type: z.literal("tool_call"), id: z.string().optional(), name: z.string(), arguments: z.string() }).loose(),
  z.object({ type: z.literal("tool_result"), callId: z.string().optional(), content: z.string() }).loose(),
  z.object({ type: z.literal("image") }).loose(),
  z.object({ type: z.literal("other"), kind: z.string() }).loose(),
]);

export const CanonicalMessageSchema = z.object({ index, role: z.string(), parts: z.array(PartSchema) });

const ViewPartSchema = z.union([z.object({ same: PartRefSchema }), PartSchema]);

export const ViewsCutLineSchema = z.object({
  kind: z.literal("cut"),
  sessionId: z.string(),
  format: z.string(),
  cut: index.describe("prefix = messages[0..cut), future = messages[cut..]"),
  reasons: z.array(z.string()),
  prefixTokens: index,
  prefix: z.array(CanonicalMessageSchema),
  future: z.array(CanonicalMessageSchema),
});

export const ViewsSidecarLineSchema = z.object({
  kind: z.literal("sidecar"),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  payload: z.string(),
});

export const DependencyVerdictSchema = z.object({
  value: z.string(),
  kind: z.enum(DEPENDENCY_KINDS),
  plantedAt: PartRefSchema.extend({ objectId: z.string().optional() }),
  usedAt: PartRefSchema,
  verdict: z.enum(DEPENDENCY_STATUSES),
  /** The action that lost it (lost ones), with its target and rule. */
  action: z.string().optional(),
  target: z.string().optional(),
  rule: z.string().optional(),
  category: z.enum(FAILURE_CATEGORY_IDS as [FailureCategory, ...FailureCategory[]]).optional(),
  /** The sidecar holding it (restorable ones, and losses to a sidecar no view text names). */
  sidecar: z.string().optional(),
});

export const ViewsUnitLineSchema = z.object({
  kind: z.literal("unit"),
  unit: z.string().describe("<sessionId>#<cut>#<policy>[#<budget>]"),
  sessionId: z.string(),
  cut: index,
  policy: z.string(),
  params: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  budget: z.union([z.object({ kind: z.literal("sweep"), pct: z.number() }), z.object({ kind: z.literal("match"), reference: z.string() })]).nullable(),
  budgetPct: z.number().nullable().describe("the sweep's target share of the prefix removed; null otherwise"),
  targetTokens: index.nullable(),
  tokensBefore: index,
  tokensAfter: index,
  pruneRate: z.number(),
  netPruneRate: z.number().nullable(),
  view: z.array(z.object({ role: z.string(), origin: z.union([index, z.literal("summary"), z.literal("reminder")]), parts: z.array(ViewPartSchema) })),
  sidecars: z.array(z.object({ digest: z.string(), objectId: z.string(), tokens: index })),
  verdicts: z.array(DependencyVerdictSchema),
  noImpact: z.boolean(),
  visibleNoImpact: z.boolean(),
  restorableNoImpact: z.boolean(),
  restores: z.array(z.object({ digest: z.string(), objectId: z.string(), tokens: index, cost: index })),
});

export const ViewsLineSchema = z.discriminatedUnion("kind", [ViewsCutLineSchema, ViewsSidecarLineSchema, ViewsUnitLineSchema]);

/** The lines as the writer builds them (typed by the trace model; the schemas above validate them). */
export interface CanonicalMessage {
  index: number;
  role: Role;
  parts: Part[];
}
export type ViewsCutLine = Omit<z.infer<typeof ViewsCutLineSchema>, "prefix" | "future"> & { prefix: CanonicalMessage[]; future: CanonicalMessage[] };
export type ViewsSidecarLine = z.infer<typeof ViewsSidecarLineSchema>;
export type ViewsUnitLine = Omit<z.infer<typeof ViewsUnitLineSchema>, "view"> & { view: CompactMessage[] };
export type ViewsLine = ViewsCutLine | ViewsSidecarLine | ViewsUnitLine;
