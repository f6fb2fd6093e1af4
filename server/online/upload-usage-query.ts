import { z } from "zod";
import { USAGE_FIELDS } from "@/lib/online/usage/schema";

const MappingSchema = z.partialRecord(z.enum(USAGE_FIELDS, { error: `a usage field (${USAGE_FIELDS.join(", ")})` }), z.string().min(1, "a column name"));

/**
 * `PUT /api/online/uploads?name=…&format=csv|jsonl&mapping=<JSON field→column>`: the file name, its
 * format (else from the name) and the mapping confirmed in the column-mapping step (else guessed).
 */
export const UploadUsageQuerySchema = z.object({
  name: z.string().trim().min(1, "name: the file name is required").max(255, "name: at most 255 characters"),
  format: z.enum(["csv", "jsonl"], { error: "format: csv or jsonl" }).optional(),
  mapping: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === "") return undefined;
      try {
        return MappingSchema.parse(JSON.parse(text));
      } catch {
        ctx.addIssue({ code: "custom", message: "mapping: a JSON object from usage fields to column names" });
        return z.NEVER;
      }
    }),
});
