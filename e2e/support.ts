// Shared helpers for the browser tests: an API key from the operator CLI, a webhook receiver that
// verifies X-Service-Signature as a client would, sign-in, and the accessibility and layout checks.
import { execFileSync } from "node:child_process";
import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import pg from "pg";
import { DEMO } from "../prisma/seed";
import { startReceiver, waitFor, type TReceived, type TReceiver } from "../tests/support/webhook-receiver";

export { startReceiver, waitFor, type TReceived, type TReceiver };

export const E2E_DATABASE_URL =
  process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_e2e";

/** The seeded demo client's id, read from the e2e database. */
export async function demoClientId(): Promise<string> {
  const db = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string }>(
      `SELECT "id" FROM "clients" WHERE "name" = $1 ORDER BY "createdAt" LIMIT 1`,
      [DEMO.clientName],
    );
    if (!rows[0]) throw new Error("demo client not seeded");
    return rows[0].id;
  } finally {
    await db.end();
  }
}

/** A fresh API key for a client, made by the operator CLI exactly as an operator would. */
export function createApiKeyWithCli(clientId: string): string {
  const out = execFileSync("npx", ["tsx", "lib/cli/main.ts", "apikey", "create", "--client", clientId], {
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: "utf8",
  });
  return (JSON.parse(out) as { apiKey: string }).apiKey;
}

export async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard(\/cases|\/reports)?$/);
}

/** The first verified delivery of an event type matching `where`, waiting for the delivery function. */
export function receivedEvent<T = Record<string, unknown>>(
  receiver: TReceiver,
  event: string,
  where: (payload: T) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<{ received: TReceived; payload: T; timestamp: number }> {
  return waitFor(
    () => {
      for (const r of receiver.received) {
        if (r.event !== event || !r.verified) continue;
        const body = r.body as { event: string; payload: T; timestamp: number };
        if (body.event === event && where(body.payload))
          return { received: r, payload: body.payload, timestamp: body.timestamp };
      }
      return null;
    },
    timeoutMs,
    `a verified ${event}`,
  );
}

const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * axe-core (WCAG 2 A/AA) finds nothing on the page, or on `context.include` only. A failure lists each
 * violation with the offending elements, so the report says what to fix.
 */
export async function expectNoAxeViolations(
  page: Page,
  context: { include?: string; exclude?: string[] } = {},
): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(WCAG_AA_TAGS);
  if (context.include) builder = builder.include(context.include);
  for (const selector of context.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const summary = violations.map(
    (v) =>
      `${v.id} (${v.impact ?? "?"}): ${v.help}\n` +
      v.nodes
        .map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ") ?? ""}`)
        .join("\n"),
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/** The page does not scroll sideways at the current viewport width. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `page width on ${page.url()}`).toBeLessThanOrEqual(innerWidth);
}

/** No table is cut off inside its scrolling wrapper: every column is in view at the current width. */
export async function expectNoClippedTables(page: Page): Promise<void> {
  const clipped = await page.evaluate(() =>
    [...document.querySelectorAll("table")]
      .map((t) => t.parentElement)
      .filter((w): w is HTMLElement => !!w && w.scrollWidth > w.clientWidth + 1)
      .map((w) => `${w.querySelector("th")?.textContent ?? "table"}: ${w.scrollWidth} > ${w.clientWidth}`),
  );
  expect(clipped, `tables wider than their box on ${page.url()}`).toEqual([]);
}
