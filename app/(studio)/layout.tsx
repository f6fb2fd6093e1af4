import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { StudioNav, type NavItem } from "@/components/shell/studio-nav";
import { requireUser } from "@/server/auth/require";
import { hasRole } from "@/server/auth/roles";

/**
 * The studio shell: product name, navigation filtered by role, and who is signed in. The layout
 * needs the user for the header; each page still calls requireUser() with its own role, because a
 * layout does not re-run on every client navigation and is not an access check.
 */
export default async function StudioLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const items: NavItem[] = [
    { href: "/traces", label: "Traces" },
    { href: "/evaluations", label: "Evaluations" },
    { href: "/rollouts", label: "Rollouts" },
    { href: "/review", label: "Review" },
    { href: "/online", label: "Online" },
    ...(hasRole(user.role, "reviewer") ? [{ href: "/upload", label: "Upload" }] : []),
    ...(hasRole(user.role, "admin") ? [{ href: "/admin/users", label: "Admin" }] : []),
  ];
  return (
    <>
      <header className="app-header">
        <Link href="/traces" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Tracefold
        </Link>
        <StudioNav items={items} />
        <div className="header-user" data-testid="current-user">
          <span title={user.email}>{user.name || user.email}</span>
          <span className="role-badge" aria-label={`role: ${user.role}`}>
            {user.role}
          </span>
          <SignOutButton />
        </div>
      </header>
      <main className="page">{children}</main>
    </>
  );
}
