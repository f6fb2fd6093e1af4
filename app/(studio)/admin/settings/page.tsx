import type { Metadata } from "next";
import Link from "next/link";
import { LlmSettingsForm } from "@/components/admin/llm-settings-form";
import { RedactionSettingsForm } from "@/components/admin/redaction-settings-form";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { envLlmSummary } from "@/server/llm/effective-config";
import { getLlmSettingsView } from "@/server/settings/llm-settings";
import { getRedactionSettings } from "@/server/settings/redaction-settings";

export const metadata: Metadata = { title: "Settings" };

/** Admin: studio-wide settings (how uploads are redacted; the LLM endpoint and its key). */
export default async function AdminSettingsPage() {
  await requireUser("admin");
  const db = getDb();
  const settings = await getRedactionSettings(db);
  const llm = await getLlmSettingsView(db);
  return (
    <>
      <div className="page-header">
        <h1>Settings</h1>
        <p>
          Secrets in uploaded traces are always redacted before anything is stored. <Link href="/admin/users">Users</Link>
        </p>
      </div>
      <div className="stack">
        <RedactionSettingsForm initial={settings} />
        <LlmSettingsForm initial={llm} envOverride={envLlmSummary()} />
      </div>
    </>
  );
}
