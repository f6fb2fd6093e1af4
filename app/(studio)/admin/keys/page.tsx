import type { Metadata } from "next";
import Link from "next/link";
import { CreateKeyForm } from "@/components/admin/create-key-form";
import { KeysTable } from "@/components/admin/keys-table";
import { requireUser } from "@/server/auth/require";
import { getDb } from "@/server/db/client";
import { listKeys } from "@/server/ingest/keys/list-keys";

export const metadata: Metadata = { title: "API keys" };

/** Admin: project API keys for scripts and collectors that call the API without a browser session. */
export default async function AdminKeysPage() {
  await requireUser("admin");
  const keys = await listKeys(getDb());
  return (
    <>
      <div className="page-header">
        <h1>API keys</h1>
        <p>
          Scripts send <code>Authorization: Bearer tfk_…</code> instead of signing in. An <strong>ingest</strong> key uploads traces (
          <code>PUT /api/uploads</code>); a <strong>read</strong> key reads what a viewer reads. Keys are limited per minute and never reach reviewing or{" "}
          <Link href="/admin/users">users</Link> and <Link href="/admin/settings">settings</Link>.
        </p>
      </div>
      <div className="grid-2">
        <KeysTable keys={keys} />
        <CreateKeyForm />
      </div>
    </>
  );
}
