import { z } from "zod";
import { parsePrices, type Prices } from "./billed-cost";
import { MODEL_PRICES, priceKeyOf, type PriceChoice } from "./model-prices";

/**
 * The rollout's `--prices` values that are not a file: `model=NAME` bills every session as that
 * model (its list prices), and `input=…,output=…[,cachedInput=…][,cacheWrite=…]` at those prices
 * (USD per million tokens; unset cache terms cost the input price). Throws RangeError saying what
 * was expected.
 */
export function parsePriceChoice(text: string): PriceChoice {
  const trimmed = text.trim();
  const model = /^model=(.+)$/.exec(trimmed)?.[1]?.trim();
  if (model !== undefined) {
    const key = priceKeyOf(model);
    if (!key)
      throw new RangeError(`no list price for model ${JSON.stringify(model)}; known: ${Object.keys(MODEL_PRICES).join(", ")} (or give input=…,output=…)`);
    return { kind: "fixed", prices: MODEL_PRICES[key]!, label: key };
  }
  // Unset terms come back NaN from the shared parser: input and output are required, the cache
  // terms default to the input price (no provider discount or surcharge assumed).
  const unset: Prices = { input: Number.NaN, output: Number.NaN, cachedInput: Number.NaN, cacheWrite: Number.NaN };
  const given = parsePrices(trimmed, unset);
  if (Number.isNaN(given.input) || Number.isNaN(given.output)) throw new RangeError("--prices needs at least input= and output= (USD per million tokens)");
  const prices: Prices = {
    input: given.input,
    output: given.output,
    cachedInput: Number.isNaN(given.cachedInput) ? given.input : given.cachedInput,
    cacheWrite: Number.isNaN(given.cacheWrite) ? given.input : given.cacheWrite,
  };
  return { kind: "fixed", prices, label: "custom" };
}

const PriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cachedInput: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});
const PriceTableSchema = z.record(z.string().min(1), PriceSchema);

/**
 * A price table file: `{"<model prefix>": {"input": 3, "output": 15, "cachedInput": 0.3, "cacheWrite": 3.75}}`,
 * merged over the built-in list prices (a file's key wins). Throws RangeError naming the file and field.
 */
export function parsePriceTable(jsonText: string, file: string): PriceChoice {
  let raw: unknown;
  try {
    raw = JSON.parse(jsonText);
  } catch (error) {
    throw new RangeError(`${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = PriceTableSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(
      `${file}: ${issue.path.join(".") || "(top level)"}: ${issue.message}; expected {"<model prefix>": {"input": USD, "output": USD, "cachedInput"?: USD, "cacheWrite"?: USD}}`,
    );
  }
  const table: Record<string, Prices> = { ...MODEL_PRICES };
  for (const [key, p] of Object.entries(parsed.data))
    table[key.toLowerCase()] = { input: p.input, output: p.output, cachedInput: p.cachedInput ?? p.input, cacheWrite: p.cacheWrite ?? p.input };
  return { kind: "by-model", table };
}

/** `5m`, `1h`, `300s` or `none` (the cache never expires) → milliseconds; RangeError otherwise. */
export function parseCacheTtl(text: string): number {
  if (/^\s*(none|inf|infinity)\s*$/i.test(text)) return Number.POSITIVE_INFINITY;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h)\s*$/i.exec(text);
  const ms = match ? Number(match[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[match[2]!.toLowerCase() as "s" | "m" | "h"] : Number.NaN;
  if (!(ms > 0)) throw new RangeError(`expected --cache-ttl as a duration like 300s, 5m or 1h, or none; got ${JSON.stringify(text)}`);
  return ms;
}
