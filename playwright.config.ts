import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${PORT}`;

const config = defineConfig({
  testDir: "e2e",
  // two production instances behind HAProxy (and PgBouncer), one of them the previous release for the
  // rolling upgrade: `npm run test:ops` only (sets E2E_CLUSTER)
  testIgnore: process.env.E2E_CLUSTER === "1" ? [] : ["**/cluster.spec.ts", "**/rolling.spec.ts"],
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: `npx tsx e2e/prepare-database.ts && node scripts/next-server.mjs start -p ${PORT}`,
    url: `${baseURL}/login`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(PORT),
      NEXTAUTH_SECRET: "e2e-nextauth-secret-0123456789",
      WEBHOOK_SECRET_KEY: "e2e-webhook-secret-key-0123456789",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_RETRY_DELAYS_MS: "200,200",
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_e2e",
    },
  },
});

// The operations specs (`npm run test:ops`) start their own servers: E2E_WEB_SERVER=off skips this one.
if (process.env.E2E_WEB_SERVER === "off") delete config.webServer;

export default config;
