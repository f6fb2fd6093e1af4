import { PolicyParamError } from "@/lib/compaction/policies/params";
import { FORMAT_IDS, type FormatId } from "@/lib/trace/model";
import { isTokenizerId, TOKENIZER_IDS, type TokenizerId } from "@/lib/tokens/tokenizer";
import { UsageError } from "./args";

/**
 * The options the whole-session commands (`simulate`, `rollout`) share, checked once: a known
 * trace format and tokenizer, a whole positive window. A bad value is a UsageError (exit 2).
 */
export function readTraceOptions(values: { format?: string | undefined; tokenizer?: string | undefined; window?: string | undefined }): {
  format?: FormatId;
  tokenizer?: TokenizerId;
  window?: number;
} {
  if (values.format !== undefined && !(FORMAT_IDS as readonly string[]).includes(values.format))
    throw new UsageError(`unknown --format ${values.format}; expected one of ${FORMAT_IDS.join(", ")}`);
  if (values.tokenizer !== undefined && !isTokenizerId(values.tokenizer))
    throw new UsageError(`unknown --tokenizer ${values.tokenizer}; expected ${TOKENIZER_IDS.join(", ")}`);
  if (values.window !== undefined && !/^[1-9]\d*$/.test(values.window))
    throw new UsageError(`--window must be a positive whole number of tokens, got ${JSON.stringify(values.window)}`);
  return {
    ...(values.format !== undefined ? { format: values.format as FormatId } : {}),
    ...(values.tokenizer !== undefined ? { tokenizer: values.tokenizer as TokenizerId } : {}),
    ...(values.window !== undefined ? { window: Number(values.window) } : {}),
  };
}

/** Runs a lib parser, turning its RangeError or PolicyParamError (a bad flag value) into a UsageError. */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof RangeError || error instanceof PolicyParamError) throw new UsageError(error.message);
    throw error;
  }
}
