import type { ParamValue, PolicyParams } from "@/lib/compaction/policies/types";
import type { PolicyInfo } from "@/server/compaction/compaction-api";

/**
 * The replay page's shareable state in the URL: `?policy=&cut=&window=&compare=` plus parameter
 * overrides as `p.<name>=` (the policy's) and `cp.<name>=` (the compared policy's). Pure, so the
 * server page and the client share it. Unknown policies and parameters are dropped, not errors.
 */
export interface CompactQuery {
  policy?: string;
  cut?: number;
  window?: number;
  compare?: string;
  params: PolicyParams;
  compareParams: PolicyParams;
}

type RawQuery = Record<string, string | string[] | undefined>;

export function parseCompactQuery(raw: RawQuery, policies: readonly PolicyInfo[]): CompactQuery {
  const one = (key: string) => {
    const value = raw[key];
    return Array.isArray(value) ? value[0] : value;
  };
  const known = (id: string | undefined) => (id && policies.some((p) => p.id === id) ? id : undefined);
  const policy = known(one("policy"));
  const compare = known(one("compare"));
  const cut = positiveInt(one("cut"));
  const window = positiveInt(one("window"));
  return {
    ...(policy ? { policy } : {}),
    ...(cut !== undefined ? { cut } : {}),
    ...(window !== undefined ? { window } : {}),
    ...(compare ? { compare } : {}),
    params: readParams(
      raw,
      "p.",
      policies.find((p) => p.id === policy),
    ),
    compareParams: readParams(
      raw,
      "cp.",
      policies.find((p) => p.id === compare),
    ),
  };
}

export function compactQueryString(query: CompactQuery): string {
  const search = new URLSearchParams();
  if (query.policy) search.set("policy", query.policy);
  if (query.cut !== undefined) search.set("cut", String(query.cut));
  if (query.window !== undefined) search.set("window", String(query.window));
  if (query.compare) search.set("compare", query.compare);
  for (const [name, value] of Object.entries(query.params)) search.set(`p.${name}`, String(value));
  for (const [name, value] of Object.entries(query.compareParams)) search.set(`cp.${name}`, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** Overrides only: values equal to the default are left out (they add nothing to a shared link). */
export function overridesOf(policy: PolicyInfo | undefined, params: PolicyParams): PolicyParams {
  const out: PolicyParams = {};
  if (!policy) return out;
  for (const spec of policy.params) {
    const value = params[spec.name];
    if (value !== undefined && value !== spec.default) out[spec.name] = value;
  }
  return out;
}

/** A text field's value typed like the parameter's default; undefined when it does not parse. */
export function coerceParam(spec: { default: ParamValue }, text: string): ParamValue | undefined {
  if (typeof spec.default === "number") {
    const n = Number(text);
    return text.trim() !== "" && Number.isFinite(n) ? n : undefined;
  }
  if (typeof spec.default === "boolean") return text === "true" ? true : text === "false" ? false : undefined;
  return text;
}

function readParams(raw: RawQuery, prefix: string, policy: PolicyInfo | undefined): PolicyParams {
  const out: PolicyParams = {};
  if (!policy) return out;
  for (const spec of policy.params) {
    const value = raw[`${prefix}${spec.name}`];
    const text = Array.isArray(value) ? value[0] : value;
    if (text === undefined) continue;
    const typed = coerceParam(spec, text);
    if (typed !== undefined) out[spec.name] = typed;
  }
  return out;
}

function positiveInt(text: string | undefined): number | undefined {
  if (!text || !/^\d{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 ? n : undefined;
}
