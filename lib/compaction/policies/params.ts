import type { Policy, PolicyParams } from "./types";

/** A parameter value of the wrong type or name; the message says which and what was expected. */
export class PolicyParamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PolicyParamError";
  }
}

/** Defaults merged with overrides; unknown names and wrong types are refused, not ignored. */
export function resolveParams(policy: Policy, overrides: PolicyParams): PolicyParams {
  const resolved: PolicyParams = {};
  for (const spec of policy.params) resolved[spec.name] = spec.default;
  for (const [name, value] of Object.entries(overrides)) {
    const spec = policy.params.find((p) => p.name === name);
    if (!spec) {
      const known = policy.params.map((p) => p.name).join(", ") || "none";
      throw new PolicyParamError(`policy ${policy.id} has no parameter ${name} (parameters: ${known})`);
    }
    if (typeof value !== typeof spec.default) {
      throw new PolicyParamError(`policy ${policy.id} parameter ${name} must be a ${typeof spec.default}, got ${JSON.stringify(value)}`);
    }
    resolved[name] = value;
  }
  return resolved;
}

/**
 * Every problem with `overrides` at once, by parameter name (unknown names, wrong types), so a
 * form can show each next to its field; `resolveParams` stops at the first.
 */
export function paramIssues(policy: Policy, overrides: PolicyParams): { name: string; message: string }[] {
  const issues: { name: string; message: string }[] = [];
  for (const [name, value] of Object.entries(overrides)) {
    try {
      resolveParams(policy, { [name]: value });
    } catch (error) {
      if (!(error instanceof PolicyParamError)) throw error;
      issues.push({ name, message: error.message });
    }
  }
  return issues;
}

/** Parses `name=value` strings from the command line into typed values using the policy's specs. */
export function parseParamAssignments(policy: Policy, assignments: string[]): PolicyParams {
  const out: PolicyParams = {};
  for (const assignment of assignments) {
    const eq = assignment.indexOf("=");
    if (eq <= 0) throw new PolicyParamError(`expected name=value, got ${JSON.stringify(assignment)}`);
    const name = assignment.slice(0, eq);
    const raw = assignment.slice(eq + 1);
    const spec = policy.params.find((p) => p.name === name);
    if (!spec) throw new PolicyParamError(`policy ${policy.id} has no parameter ${name}`);
    if (typeof spec.default === "number") {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new PolicyParamError(`parameter ${name} must be a number, got ${JSON.stringify(raw)}`);
      out[name] = n;
    } else if (typeof spec.default === "boolean") {
      if (raw !== "true" && raw !== "false") throw new PolicyParamError(`parameter ${name} must be true or false`);
      out[name] = raw === "true";
    } else out[name] = raw;
  }
  return out;
}

/** Reads a numeric parameter that `resolveParams` already type-checked. */
export function numParam(params: PolicyParams, name: string): number {
  const value = params[name];
  if (typeof value !== "number") throw new PolicyParamError(`parameter ${name} is not a number`);
  return value;
}

export function boolParam(params: PolicyParams, name: string): boolean {
  return params[name] === true;
}

export function strParam(params: PolicyParams, name: string): string {
  const value = params[name];
  if (typeof value !== "string") throw new PolicyParamError(`parameter ${name} is not a string`);
  return value;
}
