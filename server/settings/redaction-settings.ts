import { z } from "zod";
import { compileAllowList, isSecretKind, SECRET_KINDS, type RedactionRules, type SecretKind } from "@/lib/redact";
import type { Db } from "../db/client";

/**
 * How uploads are redacted, set by an admin and stored in the `Setting` table (one row per field).
 * Redaction itself is always on (a team uploads production traces); what an admin chooses is
 * whether the raw original is also kept, whether e-mail addresses count as secrets, which other
 * rules run, and which values are never secrets. Read on every upload, `tracefold import` and the
 * demo seed (server/trace/import/redact-and-import.ts), so a change applies to the next file.
 */
export interface RedactionSettings {
  /** Keep the unredacted upload in the blob store beside the redacted one (off by default). */
  keepRawOriginals: boolean;
  /** Redact e-mail addresses too (personal data rather than credentials; off by default). */
  redactEmails: boolean;
  /** Rules switched off (none by default; e-mail is governed by redactEmails alone). */
  disabledRules: SecretKind[];
  /** Values never redacted: exact values or `/regex/` matching a whole value (see lib/redact/allow-list.ts). */
  allowList: string[];
}

export const DEFAULT_REDACTION_SETTINGS: RedactionSettings = { keepRawOriginals: false, redactEmails: false, disabledRules: [], allowList: [] };

/** The rules an admin switches one by one (e-mail has its own switch, redactEmails). */
export const SWITCHABLE_KINDS: readonly SecretKind[] = SECRET_KINDS.map((k) => k.kind).filter((k) => k !== "email");

const KEYS = {
  keepRawOriginals: "redaction.keepRawOriginals",
  redactEmails: "redaction.redactEmails",
  disabledRules: "redaction.disabledRules",
  allowList: "redaction.allowList",
} as const;

/** A checkbox form: a field present as "on"/"true" is true, absent is false. */
const checkbox = z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean());

/** The `rule.<kind>` fields of a form, gathered as `rules: { kind: value }` so they are checked as one field. */
function gatherRules(input: unknown): unknown {
  if (typeof input !== "object" || input === null) return input;
  const rules: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (name.startsWith("rule.")) rules[name.slice("rule.".length)] = value;
    else rest[name] = value;
  }
  return { ...rest, rules };
}

/**
 * The admin form: the two checkboxes, `rule.<kind>` = "on" | "off" per rule (absent: on, so an
 * empty form stores the defaults), and `allowList`, one entry per line (blank lines ignored), each
 * refused with its line number when it is not a usable entry. Errors are reported per field
 * (`rules`, `allowList`), all at once.
 */
export const RedactionSettingsSchema = z
  .preprocess(
    gatherRules,
    z.object({
      keepRawOriginals: checkbox,
      redactEmails: checkbox,
      rules: z.record(z.string(), z.unknown()).transform((rules, ctx) => {
        const disabled = new Set<string>();
        for (const [kind, value] of Object.entries(rules)) {
          if (!isSecretKind(kind) || kind === "email") ctx.addIssue({ code: "custom", message: `unknown rule ${JSON.stringify(kind)}` });
          else if (value === "off") disabled.add(kind);
          else if (value !== "on") ctx.addIssue({ code: "custom", message: `rule ${kind} must be "on" or "off"` });
        }
        return SWITCHABLE_KINDS.filter((k) => disabled.has(k));
      }),
      allowList: z
        .string({ error: "must be text, one entry per line" })
        .max(120_000, "is too long")
        .default("")
        .transform((text, ctx) => {
          const entries = text
            .split(/\r?\n/)
            .map((l) => l.trim())
            .filter((l) => l.length > 0);
          for (const issue of compileAllowList(entries).issues) ctx.addIssue({ code: "custom", message: `entry ${issue.entry}: ${issue.message}` });
          return entries;
        }),
    }),
  )
  .transform((form): RedactionSettings => ({
    keepRawOriginals: form.keepRawOriginals,
    redactEmails: form.redactEmails,
    disabledRules: form.rules,
    allowList: form.allowList,
  }));

const StoredKinds = z.array(z.string()).transform((kinds) => SWITCHABLE_KINDS.filter((k) => kinds.includes(k)));
const StoredAllowList = z.array(z.string()).transform((entries) => entries.filter((e) => compileAllowList([e]).issues.length === 0));

/** The current settings; a missing or unreadable row falls back to its default. */
export async function getRedactionSettings(db: Db): Promise<RedactionSettings> {
  const rows = await db.setting.findMany({ where: { key: { in: Object.values(KEYS) } } });
  const value = (name: keyof RedactionSettings) => rows.find((r) => r.key === KEYS[name])?.value;
  const flag = (name: "keepRawOriginals" | "redactEmails") => {
    const stored = value(name);
    return stored === undefined ? DEFAULT_REDACTION_SETTINGS[name] : stored === "true";
  };
  const list = <T>(name: "disabledRules" | "allowList", schema: z.ZodType<T>, fallback: T): T => {
    const stored = value(name);
    if (stored === undefined) return fallback;
    try {
      const parsed = schema.safeParse(JSON.parse(stored));
      return parsed.success ? parsed.data : fallback;
    } catch {
      return fallback;
    }
  };
  return {
    keepRawOriginals: flag("keepRawOriginals"),
    redactEmails: flag("redactEmails"),
    disabledRules: list("disabledRules", StoredKinds, []),
    allowList: list("allowList", StoredAllowList, []),
  };
}

/**
 * Stores the settings at once (admin only: the caller checks the role). Lists left out are stored
 * empty (every rule on, nothing allowed), as the admin form's defaults are.
 */
export async function setRedactionSettings(
  db: Db,
  input: Pick<RedactionSettings, "keepRawOriginals" | "redactEmails"> & Partial<Pick<RedactionSettings, "disabledRules" | "allowList">>,
  updatedById?: string,
): Promise<RedactionSettings> {
  const settings: RedactionSettings = { ...input, disabledRules: input.disabledRules ?? [], allowList: input.allowList ?? [] };
  const stored: Record<keyof RedactionSettings, string> = {
    keepRawOriginals: String(settings.keepRawOriginals),
    redactEmails: String(settings.redactEmails),
    disabledRules: JSON.stringify(settings.disabledRules),
    allowList: JSON.stringify(settings.allowList),
  };
  await db.$transaction(
    (Object.keys(KEYS) as (keyof RedactionSettings)[]).map((name) =>
      db.setting.upsert({
        where: { key: KEYS[name] },
        create: { key: KEYS[name], value: stored[name], updatedById: updatedById ?? null },
        update: { value: stored[name], updatedById: updatedById ?? null },
      }),
    ),
  );
  return settings;
}

/** The rules these settings make (lib/redact's redactOptionsOf turns them into the redactor's options): uploads, `tracefold import`, the seed and the upload preview all run these. */
export function rulesOf(settings: Pick<RedactionSettings, "redactEmails" | "disabledRules" | "allowList">): RedactionRules {
  return { emails: settings.redactEmails, disabled: settings.disabledRules, allow: settings.allowList };
}
