import type { Metadata } from "next";
import Link from "next/link";
import { RedactionSettingsForm } from "@/components/admin/redaction-settings-form";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { getRedactionSettings } from "@/server/settings/redaction-settings";

export const metadata: Metadata = { title: "Settings" };

/** Admin: studio-wide settings (today: how uploads are redacted). */
export default async function AdminSettingsPage() {
  await requireUser("admin");
  const settings = await getRedactionSettings(getDb());
  return (
    <>
      <div className="page-header">
        <h1>Settings</h1>
        <p>
          Secrets in uploaded traces are always redacted before anything is stored. <Link href="/admin/users">Users</Link>
        </p>
      </div>
      <RedactionSettingsForm initial={settings} />
    </>
  );
}
