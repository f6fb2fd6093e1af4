import { z } from "zod";
import { DEFAULT_PRICES } from "@/lib/rollout/billed-cost";
import { findPolicy } from "@/lib/compaction/policies/registry";
import { SimSelectionSchema } from "./simulate-stored";

const price = z.number().finite().min(0, "prices: USD per million tokens, 0 or more");

/** The body of `POST /api/online/simulate`: what to replay, under which policy and pressure. */
export const SimulateRequestSchema = z.object({
  selection: SimSelectionSchema,
  policy: z.string().refine((id) => findPolicy(id) !== undefined, { message: "policy: unknown policy id" }),
  trigger: z.number().gt(0, "trigger: a share of the window above 0").max(1, "trigger: at most 1 (100% of the window)").optional(),
  window: z.number().int("window: a whole number of tokens").positive("window: a positive number of tokens").optional(),
  prices: z.object({ input: price, cachedInput: price, cacheWrite: price, output: price }).default(DEFAULT_PRICES),
});
export type SimulateRequest = z.infer<typeof SimulateRequestSchema>;
