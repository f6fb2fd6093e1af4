import { z } from "zod";
import { FORMAT_IDS } from "@/lib/trace/model";

/**
 * Query of `PUT /api/uploads?name=<file name>&format=<optional>`. The name is only a label (shown
 * in the studio and in issues): any directory part a browser or client sends is dropped.
 */
export const UploadQuerySchema = z.object({
  name: z
    .string({ error: "name is required: the uploaded file's name" })
    .transform((s) => s.split(/[\\/]/).pop()?.trim() ?? "")
    .pipe(z.string().min(1, "name must not be empty").max(255, "name must be at most 255 characters")),
  format: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.enum(FORMAT_IDS, { error: `format must be one of ${FORMAT_IDS.join(", ")} (or left out to detect it)` }).optional(),
  ),
});
export type UploadQuery = z.infer<typeof UploadQuerySchema>;
