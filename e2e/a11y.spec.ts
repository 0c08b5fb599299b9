import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { can, type TPermission } from "../lib/auth/permission-table";
import { DEMO } from "../prisma/seed";
import {
  demoClientId,
  E2E_DATABASE_URL,
  expectNoAxeViolations,
  expectNoClippedTables,
  expectNoHorizontalScroll,
  signIn,
} from "./support";

// Every dashboard page, as every role that may open it, at 1280×800: axe-core (WCAG 2 A/AA) finds nothing,
// the page does not scroll sideways, and a screenshot is kept to be looked at. Keyboard: dialogs trap
// focus, close on Esc and give focus back; focus rings are visible.

const SHOTS = "test-results/a11y";
const VIEWPORT = { width: 1280, height: 800 };

type TIds = {
  transaction: string;
  user: string;
  report: string;
  rule: string;
  case: string;
  list: string;
  /** The user with the most links, and a case of a linked user: the network view with a ring in it. */
  linkedUser: string;
  linkedCase: string;
};
type TRole = "admin" | "reviewer" | "reporting_officer";

// One line per page; `permission` decides which roles visit it.
const PAGES: { name: string; path: (ids: TIds) => string; permission: TPermission }[] = [
  { name: "overview", path: () => "/dashboard", permission: "dashboard.read" },
  { name: "alerts", path: () => "/dashboard/alerts", permission: "dashboard.read" },
  { name: "transactions", path: () => "/dashboard/transactions", permission: "dashboard.read" },
  {
    name: "transaction",
    path: (ids) => `/dashboard/transactions/${ids.transaction}`,
    permission: "dashboard.read",
  },
  { name: "users", path: () => "/dashboard/users", permission: "dashboard.read" },
  { name: "user", path: (ids) => `/dashboard/users/${ids.user}`, permission: "dashboard.read" },
  { name: "cases", path: () => "/dashboard/cases", permission: "dashboard.read" },
  { name: "case", path: (ids) => `/dashboard/cases/${ids.case}`, permission: "cases.work" },
  { name: "user-network", path: (ids) => `/dashboard/users/${ids.linkedUser}`, permission: "dashboard.read" },
  { name: "case-network", path: (ids) => `/dashboard/cases/${ids.linkedCase}`, permission: "cases.work" },
  { name: "rules", path: () => "/dashboard/rules", permission: "rules.read" },
  { name: "rule", path: (ids) => `/dashboard/rules/${ids.rule}`, permission: "rules.read" },
  { name: "new-rule", path: () => "/dashboard/rules/new", permission: "rules.draft" },
  { name: "reports", path: () => "/dashboard/reports", permission: "reports.read" },
  { name: "report", path: (ids) => `/dashboard/reports/${ids.report}`, permission: "reports.read" },
  { name: "settings", path: () => "/dashboard/settings", permission: "settings.manage" },
  { name: "team", path: () => "/dashboard/team", permission: "team.manage" },
  { name: "audit", path: () => "/dashboard/audit", permission: "audit.read" },
  { name: "api-keys", path: () => "/dashboard/api-keys", permission: "apiKeys.manage" },
  { name: "webhooks", path: () => "/dashboard/webhooks", permission: "webhooks.manage" },
  { name: "lists", path: () => "/dashboard/lists", permission: "lists.manage" },
  { name: "list", path: (ids) => `/dashboard/lists/${ids.list}`, permission: "lists.manage" },
];

const ACCOUNTS: Record<TRole, { email: string; password: string }> = {
  admin: DEMO.admin,
  reviewer: DEMO.reviewer,
  reporting_officer: DEMO.officer,
};

// Identifier values two or more (but not too many) users of the client share: what links people.
const SHARED = `WITH shared AS (SELECT "clientId", kind, value FROM user_identifiers WHERE "clientId" = $1
  GROUP BY 1, 2, 3 HAVING count(*) BETWEEN 2 AND 50)`;

/** Ids of seeded records to open the detail pages: the busiest user and a transaction that fired rules. */
async function seededIds(): Promise<TIds> {
  const clientId = await demoClientId();
  const db = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await db.connect();
  try {
    const one = async (sql: string) => {
      const { rows } = await db.query<{ id: string }>(sql, [clientId]);
      if (!rows[0]) throw new Error(`nothing seeded for: ${sql}`);
      return encodeURIComponent(rows[0].id);
    };
    return {
      transaction: await one(
        `SELECT "transactionId" AS id FROM alerts WHERE "clientId" = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      ),
      user: await one(
        `SELECT "userId" AS id FROM transactions WHERE "clientId" = $1 AND "userId" IS NOT NULL
         GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      ),
      report: await one(`SELECT id FROM reports WHERE "clientId" = $1 ORDER BY "createdAt" LIMIT 1`),
      case: await one(`SELECT id FROM cases WHERE "clientId" = $1 ORDER BY "alertCount" DESC, id LIMIT 1`),
      rule: await one(`SELECT "ruleId" AS id FROM rules WHERE "clientId" = $1 ORDER BY "ruleId" LIMIT 1`),
      list: await one(`SELECT id FROM lists WHERE "clientId" = $1 ORDER BY name LIMIT 1`),
      linkedUser: await one(
        `${SHARED} SELECT i."userId" AS id FROM user_identifiers i JOIN shared s USING ("clientId", kind, value)
         GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      ),
      linkedCase: await one(
        `${SHARED} SELECT c.id FROM cases c JOIN user_identifiers i ON i."clientId" = c."clientId"
           AND c."subjectType" = 'user' AND i."userId" = c."subjectId"
         JOIN shared s ON s."clientId" = i."clientId" AND s.kind = i.kind AND s.value = i.value
         GROUP BY c.id, c.status ORDER BY (c.status = 'closed'), count(*) DESC, c.id LIMIT 1`,
      ),
    };
  } finally {
    await db.end();
  }
}

async function signedInPage(browser: Browser, role: TRole): Promise<Page> {
  // axe needs a page of a context made with browser.newContext()
  const context = await browser.newContext({ viewport: VIEWPORT, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await signIn(page, ACCOUNTS[role]);
  return page;
}

/** The page has settled: no request of react-query in flight and no "Loading…" left. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await expect(page.getByText("Loading…", { exact: true })).toHaveCount(0);
}

let ids: TIds;

test.beforeAll(async () => {
  ids = await seededIds();
});

test("the sign-in page has no violations and fits 1280 px", async ({ page }) => {
  await page.setViewportSize(VIEWPORT);
  await page.goto("/login");
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/login.png`, fullPage: true });
});

for (const role of Object.keys(ACCOUNTS) as TRole[]) {
  test(`every dashboard page a ${role} may open: no axe violations, no sideways scroll`, async ({
    browser,
  }) => {
    test.setTimeout(360_000);
    const page = await signedInPage(browser, role);
    const visited: string[] = [];
    const problems: string[] = [];
    for (const p of PAGES.filter((p) => can(role, p.permission))) {
      // Every page is checked even when one fails, so one run lists every problem.
      await test.step(p.name, async () => {
        try {
          const res = await page.goto(p.path(ids));
          expect(res?.status(), `${p.name} answered`).toBe(200);
          await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
          await settle(page);
          await page.screenshot({ path: `${SHOTS}/${role}-${p.name}.png`, fullPage: true });
          await expectNoAxeViolations(page);
          await expectNoHorizontalScroll(page);
          await expectNoClippedTables(page);
          visited.push(p.name);
        } catch (err) {
          problems.push(`${p.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      });
    }
    expect(problems, `pages of the ${role}`).toEqual([]);
    expect(visited.length).toBeGreaterThanOrEqual(role === "admin" ? PAGES.length : 8);
    await page.context().close();
  });
}

test("a dialog traps Tab, closes on Esc and gives focus back to its opener", async ({ browser }) => {
  const page = await signedInPage(browser, "admin");
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Name").fill(`a11y key ${Date.now()}`);
  await page.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("dialog", { name: "Your new API key" });
  await expect(created).toBeVisible();
  await expect(created.getByRole("button", { name: "Done" })).toBeFocused();
  await created.getByRole("button", { name: "Done" }).click();

  const revoke = page.getByRole("button", { name: "Revoke" }).first();
  await revoke.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /^Revoke / });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/dialog-revoke.png` });
  // Tab and Shift+Tab cycle among the dialog's two buttons and never reach the page behind it.
  for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
  await page.context().close();
});

test("keyboard focus is shown by a ring at least 2 px wide", async ({ browser }) => {
  const page = await signedInPage(browser, "reviewer");
  await page.goto("/dashboard/users");
  await settle(page);
  // Tab to the first link of the main navigation, as a keyboard user would.
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.closest("nav") !== null)) break;
  }
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return {
      tag: el.tagName,
      width: parseFloat(style.outlineWidth),
      style: style.outlineStyle,
      color: style.outlineColor,
    };
  });
  expect(ring.tag).toBe("A");
  expect(ring.style).toBe("solid");
  expect(ring.width).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: `${SHOTS}/focus-ring.png`, clip: { x: 0, y: 0, width: 320, height: 400 } });
  await page.context().close();
});
