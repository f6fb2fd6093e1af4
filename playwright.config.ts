import { defineConfig } from "@playwright/test";

/** Port of the e2e server (scripts/e2e-server.sh reads the same variable). */
const E2E_PORT = process.env.E2E_PORT ?? "3100";

/**
 * End-to-end tests against the real production build (scripts/e2e-server.sh) in Debian's chromium.
 * Never run `npx playwright install`: these machines are offline; CHROMIUM_PATH overrides the binary.
 * The `setup` project signs in once per role and saves the cookies under e2e/.auth/.
 */
const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/, use: chromium },
    { name: "chromium", testMatch: /.*\.spec\.ts/, dependencies: ["setup"], use: chromium },
  ],
  webServer: {
    command: "bash scripts/e2e-server.sh",
    url: `http://127.0.0.1:${E2E_PORT}/login`,
    reuseExistingServer: false,
    // A cold production build takes 1–4 minutes on a shared 2-core machine; leave room for it.
    timeout: 600_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
