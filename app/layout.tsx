import type { Metadata } from "next";
import type { ReactNode } from "react";
// Global CSS in cascade order: tokens and reset, then the shared global classes and page-level rules.
import "./globals.css";
import "./styles/controls.css";
import "./styles/layout.css";
import "./styles/feedback.css";
import "./styles/data-table.css";
import "./styles/login.css";
import "./styles/upload.css";
import "./styles/admin.css";
import "./styles/evaluation-run.css";

export const metadata: Metadata = {
  title: { default: "Tracefold", template: "%s · Tracefold" },
  icons: { icon: "/favicon.svg" },
  description: "Govern the context of long-horizon LLM agents: import traces, replay compaction policies, evaluate, review.",
};

/** Root layout: system font stacks only (no next/font/google; the build machines are offline). */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
