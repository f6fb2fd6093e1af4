import { z } from "zod";
import type { Db } from "../db/client";

/**
 * How uploads are redacted, set by an admin and stored in the `Setting` table. Redaction itself is
 * always on (a team uploads production traces); what an admin chooses is whether the raw original
 * is also kept, and whether e-mail addresses count as secrets. Read on every upload, so a change
 * applies to the next file.
 */
export interface RedactionSettings {
  /** Keep the unredacted upload in the blob store beside the redacted one (off by default). */
  keepRawOriginals: boolean;
  /** Redact e-mail addresses too (personal data rather than credentials; off by default). */
  redactEmails: boolean;
}

export const DEFAULT_REDACTION_SETTINGS: RedactionSettings = { keepRawOriginals: false, redactEmails: false };

const KEYS = { keepRawOriginals: "redaction.keepRawOriginals", redactEmails: "redaction.redactEmails" } as const;

/** A checkbox form: a field present as "on"/"true" is true, absent is false. */
const checkbox = z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean());
export const RedactionSettingsSchema = z.object({ keepRawOriginals: checkbox, redactEmails: checkbox });

/** The current settings; a missing or unreadable row falls back to its default. */
export async function getRedactionSettings(db: Db): Promise<RedactionSettings> {
  const rows = await db.setting.findMany({ where: { key: { in: Object.values(KEYS) } } });
  const read = (name: keyof RedactionSettings): boolean => {
    const row = rows.find((r) => r.key === KEYS[name]);
    return row ? row.value === "true" : DEFAULT_REDACTION_SETTINGS[name];
  };
  return { keepRawOriginals: read("keepRawOriginals"), redactEmails: read("redactEmails") };
}

/** Stores both settings at once (admin only: the caller checks the role). */
export async function setRedactionSettings(db: Db, settings: RedactionSettings, updatedById?: string): Promise<RedactionSettings> {
  await db.$transaction(
    (Object.keys(KEYS) as (keyof RedactionSettings)[]).map((name) =>
      db.setting.upsert({
        where: { key: KEYS[name] },
        create: { key: KEYS[name], value: String(settings[name]), updatedById: updatedById ?? null },
        update: { value: String(settings[name]), updatedById: updatedById ?? null },
      }),
    ),
  );
  return settings;
}
