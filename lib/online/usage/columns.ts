import { REQUIRED_FIELDS, USAGE_FIELDS, type UsageField } from "./schema";

/** Usage field → source column (CSV header name, or JSONL key / dotted path such as `usage.input_tokens`). */
export type ColumnMapping = Partial<Record<UsageField, string>>;

/**
 * Header names seen in real usage exports (provider consoles, gateways, OTel GenAI attributes),
 * compared after normalisation (lower case, separators removed). Order matters: the first alias
 * that matches a header wins, and a header is given to one field only.
 */
const ALIASES: Record<UsageField, readonly string[]> = {
  timestamp: ["timestamp", "ts", "time", "datetime", "createdat", "created", "date", "starttime", "requesttime"],
  account: ["account", "accountid", "email", "accountemail", "useremail", "user", "userid", "customer", "customerid", "org", "orgid", "tenant"],
  group: ["group", "arm", "variant", "cohort", "bucket", "experimentgroup", "treatment"],
  surface: ["surface", "feature", "product", "coverage", "source", "app"],
  inputTokens: ["inputtokens", "prompttokens", "input", "tokensin", "genaiusageinputtokens", "usageinputtokens", "usageprompttokens"],
  cachedInputTokens: [
    "cachedinputtokens",
    "cachedtokens",
    "cachereadinputtokens",
    "cachereadtokens",
    "cachehittokens",
    "promptcachehittokens",
    "usagecachedinputtokens",
  ],
  cacheWriteTokens: ["cachewritetokens", "cachecreationinputtokens", "cachecreationtokens", "cachewriteinputtokens", "usagecachecreationinputtokens"],
  outputTokens: ["outputtokens", "completiontokens", "output", "tokensout", "genaiusageoutputtokens", "usageoutputtokens", "usagecompletiontokens"],
  model: ["model", "modelname", "genairequestmodel", "genairesponsemodel", "engine"],
};

function normalise(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The mapping Tracefold proposes for these headers; fields without a plausible column stay unmapped. */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const taken = new Set<string>();
  const byNorm = new Map<string, string>();
  for (const h of headers) if (!byNorm.has(normalise(h))) byNorm.set(normalise(h), h);
  for (const field of USAGE_FIELDS) {
    for (const alias of ALIASES[field]) {
      const header = byNorm.get(alias);
      if (header !== undefined && !taken.has(header)) {
        mapping[field] = header;
        taken.add(header);
        break;
      }
    }
  }
  return mapping;
}

/**
 * Applies `field=column` overrides on top of a guess. An empty column unmaps the field
 * (`group=` when the guessed "group" column is something else). Unknown fields are an error.
 */
export function applyOverrides(mapping: ColumnMapping, overrides: Record<string, string>): ColumnMapping {
  const out: ColumnMapping = { ...mapping };
  for (const [field, column] of Object.entries(overrides)) {
    if (!(USAGE_FIELDS as readonly string[]).includes(field)) {
      throw new RangeError(`unknown usage field ${JSON.stringify(field)}: expected one of ${USAGE_FIELDS.join(", ")}`);
    }
    if (column === "") delete out[field as UsageField];
    else out[field as UsageField] = column;
  }
  return out;
}

/** Required fields the mapping leaves unmapped (the upload cannot proceed until this is empty). */
export function missingRequired(mapping: ColumnMapping): UsageField[] {
  return REQUIRED_FIELDS.filter((f) => mapping[f] === undefined);
}

/** Mapped columns that the file does not have (a typo in an override, or the wrong file). CSV only: JSONL keys vary per line. */
export function unknownColumns(mapping: ColumnMapping, headers: readonly string[]): string[] {
  const set = new Set(headers);
  return Object.values(mapping).filter((c): c is string => c !== undefined && !set.has(c));
}
