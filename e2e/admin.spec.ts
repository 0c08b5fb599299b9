import { execFileSync } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import pg from "pg";
import { DEMO } from "../prisma/seed";

// Admin screens end to end: rule written with a CEL error then fixed, backtested over history made
// through /v1, published and firing on the next screening; a webhook that fails, is redelivered and
// arrives signed; a reviewer refused the admin pages and the routes behind them.

const DB_URL = process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/rss_e2e";
const RULE_ID = "E2E-BIG-REPEAT";
const SECRET = "e2e-subscription-secret-at-least-32-characters";
const HOUR = 3_600_000;

let apiKey = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const db = new pg.Client({ connectionString: DB_URL });
  await db.connect();
  const { rows } = await db.query<{ id: string }>(
    `SELECT "id" FROM "clients" WHERE "name" = $1 ORDER BY "createdAt" LIMIT 1`,
    [DEMO.clientName],
  );
  await db.end();
  const clientId = rows[0]!.id;
  const out = execFileSync("npx", ["tsx", "lib/cli/main.ts", "apikey", "create", "--client", clientId], {
    env: { ...process.env, DATABASE_URL: DB_URL },
    encoding: "utf8",
  });
  apiKey = (JSON.parse(out) as { apiKey: string }).apiKey;
});

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard(\/cases|\/reports)?$/);
}

async function screen(request: APIRequestContext, id: string, amount: number, timestamp: number) {
  const res = await request.post("/v1/transaction", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: { id, userId: "e2e-bt", status: "PENDING", currencyCode: "EUR", amount, timestamp },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { triggered: Array<{ id: string }> };
}

test("write a rule, see the CEL error, fix it, backtest, publish, and it fires", async ({
  page,
  request,
}) => {
  const now = Date.now();
  // history: three big payments of one user within three hours -> the 2nd and 3rd would fire
  await screen(request, "e2e-hist-1", 7500, now - 3 * HOUR);
  await screen(request, "e2e-hist-2", 7600, now - 2 * HOUR);
  await screen(request, "e2e-hist-3", 7700, now - HOUR);

  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/rules");
  await expect(page.getByRole("heading", { name: "Rules" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/rules-list.png", fullPage: true });
  await page.getByRole("link", { name: "New rule" }).click();

  await page.getByLabel("Rule id").fill(RULE_ID);
  await page.getByLabel("Name", { exact: true }).fill("Repeated big payments");
  await page.getByLabel("Reason").fill("Two or more payments of 7,000 or more within 24 h");
  await page.getByRole("button", { name: "Add aggregate" }).click();
  await page.getByLabel("Where").fill("transaction.amount >= 7000");
  await page
    .getByLabel("Condition (CEL)")
    .fill("transaction.userId == 'e2e-bt' && aggregates.agg1 >= 2 && amount > 1");
  await expect(page.getByTestId("error-rule-condition")).toContainText("unknown variable amount");
  await page.screenshot({ path: "test-results/screens/rule-editor-cel-error.png", fullPage: true });

  await page.getByLabel("Condition (CEL)").fill("transaction.userId == 'e2e-bt' && aggregates.agg1 >= 2");
  await expect(page.getByTestId("validation-state")).toHaveText("Valid");
  await expect(page.getByTestId("error-rule-condition")).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/rule-editor-fixed.png", fullPage: true });
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/rules/${RULE_ID}`));
  await expect(page.getByTestId("saved-note")).toHaveText(
    "Saved as draft v1. It does not screen until published.",
  );

  await page.getByRole("button", { name: "Run backtest" }).click();
  await expect(page.getByTestId("backtest-summary")).toContainText("Done:", { timeout: 30_000 });
  await expect(page.getByTestId("backtest-draft-hits")).toHaveText("2");
  await expect(page.getByRole("link", { name: "e2e-hist-2" })).toBeVisible();
  await expect(page.getByRole("link", { name: "e2e-hist-3" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/rule-backtest.png", fullPage: true });

  await page.getByRole("button", { name: "Publish draft v1…" }).click();
  await page.getByRole("dialog").getByLabel("Change note").fill("Repeated big payments, backtested");
  await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
  await expect(page.getByTestId("rule-status")).toHaveText("Active");
  await expect(page.getByTestId("version-1")).toContainText("Live · Active");
  await page.screenshot({ path: "test-results/screens/rule-published.png", fullPage: true });

  const answer = await screen(request, "e2e-live-1", 8000, Date.now());
  expect(answer.triggered.map((t) => t.id)).toContain(RULE_ID);
});

test("create a webhook, see the failed delivery, redeliver it to a verified 200", async ({
  page,
  request,
}) => {
  let mode: 500 | 200 = 500;
  const verified: Array<{ event: string; status: number }> = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const header = String(req.headers["x-service-signature"] ?? "");
      const t = /t=(\d+)/.exec(header)?.[1] ?? "";
      const v1 = /v1=([0-9a-f]+)/.exec(header)?.[1] ?? "";
      const expected = createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex");
      const ok = v1.length === expected.length && timingSafeEqual(Buffer.from(v1), Buffer.from(expected));
      if (ok) verified.push({ event: String(req.headers["x-service-event"]), status: mode });
      res.statusCode = ok ? mode : 401;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/hook`;
  try {
    await signIn(page, DEMO.admin);
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("URL").fill(url);
    await page.getByLabel("transaction.screened").check();
    await page.getByLabel("Signing secret (leave blank to generate one)").fill(SECRET);
    await page.getByRole("button", { name: "Create subscription" }).click();
    await expect(page.getByTestId("subscription-row").filter({ hasText: url })).toBeVisible();
    // the create button is disabled once the form clears: a note says it worked and holds the focus
    const created = page.getByTestId("done-note").filter({ hasText: "Subscription created" });
    await expect(created).toBeFocused();

    await screen(request, "e2e-hook-1", 10, Date.now());
    await page.getByLabel("Failed only").check();
    const row = page.getByTestId("delivery-row").filter({ hasText: url });
    await expect(row.first()).toHaveAttribute("data-status", "failed", { timeout: 45_000 });
    await expect(row.first()).toContainText("#3");
    await expect(row.first()).toContainText("500");
    await page.screenshot({ path: "test-results/screens/webhook-failed.png", fullPage: true });
    expect(verified.filter((v) => v.status === 500).length).toBe(3);

    mode = 200;
    await row.first().getByRole("button", { name: "Redeliver" }).click();
    // the button goes once the delivery is queued: a note says so and keeps the focus on the page
    const queued = page.getByTestId("done-note").filter({ hasText: "queued" });
    await expect(queued).toHaveText(
      "transaction.screened queued to be sent again; its row shows the new attempts.",
    );
    await expect(queued).toBeFocused();
    await page.getByLabel("Failed only").uncheck();
    await expect(page.getByTestId("delivery-row").filter({ hasText: url }).first()).toHaveAttribute(
      "data-status",
      "delivered",
      { timeout: 30_000 },
    );
    await page.screenshot({ path: "test-results/screens/webhook-redelivered.png", fullPage: true });
    expect(verified.filter((v) => v.status === 200)).toEqual([
      { event: "transaction.screened", status: 200 },
    ]);
  } finally {
    server.close();
  }
});

test("an admin creates and revokes an API key, saves settings and adds a team member", async ({
  page,
  request,
}) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Name").fill("e2e key");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = (await page.getByTestId("new-api-key").textContent()) ?? "";
  expect(shown).toMatch(/^rsk_/);
  await page.screenshot({ path: "test-results/screens/api-key-created.png" });
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  // focus comes back to the form (the create button was disabled while the key was made)
  await expect(page.getByLabel("Name")).toBeFocused();
  const listRes = await request.get("/v1/rules", { headers: { authorization: `Bearer ${shown}` } });
  expect(listRes.status()).toBe(200);

  const row = page.getByRole("row").filter({ hasText: "e2e key" });
  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("Revoked");
  expect((await request.get("/v1/rules", { headers: { authorization: `Bearer ${shown}` } })).status()).toBe(
    401,
  );
  await page.screenshot({ path: "test-results/screens/api-keys.png", fullPage: true });

  await page.goto("/dashboard/settings");
  await page.getByLabel("Reporting entity id").fill("2077"); // a whole number, as the national schema of report-editor.spec requires
  // goAML codes are the active schema's lookups; wallets are not used by the demo reports the reports spec files.
  await expect(page.getByTestId("goaml-schema-name")).toHaveText("Demo FIU goAML 5.0.1");
  await page.getByTestId("code-transmode-wallet").selectOption("D");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Reporting entity id")).toHaveValue("2077");
  await expect(page.getByTestId("code-transmode-wallet")).toHaveValue("D");
  await page
    .getByTestId("goaml-schema")
    .locator("..")
    .screenshot({ path: "test-results/screens/settings-goaml.png" });
  await page.screenshot({ path: "test-results/screens/settings.png", fullPage: true });

  await page.goto("/dashboard/team");
  await page.getByLabel("Email").fill("new.reviewer@demo.test");
  // the new member's role, not one of the role pickers of the members listed above
  await page.getByRole("combobox", { name: /^Role(?! of)/ }).selectOption("reviewer");
  await page.getByLabel("Initial password (at least 8 characters)").fill("a-long-initial-pass");
  await page.getByRole("button", { name: "Create user" }).click();
  const member = page.getByRole("row").filter({ hasText: "new.reviewer@demo.test" });
  await expect(member).toContainText("Active");
  // disabling is not a dead end: the member can be enabled again
  await member.getByRole("button", { name: "Disable" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
  await expect(member).toContainText("Disabled");
  await member.getByRole("button", { name: "Enable" }).click();
  await expect(member).toContainText("Active");
  await expect(member.getByRole("button", { name: "Disable" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/team.png", fullPage: true });
});

test("a reviewer is refused the admin pages and the routes behind them", async ({ page }) => {
  await signIn(page, DEMO.reviewer);
  for (const path of [
    "/dashboard/webhooks",
    "/dashboard/api-keys",
    "/dashboard/settings",
    "/dashboard/team",
    "/dashboard/audit",
  ]) {
    await page.goto(path);
    await expect(page.getByTestId("forbidden")).toBeVisible();
  }
  await page.screenshot({ path: "test-results/screens/reviewer-forbidden.png", fullPage: true });

  // what the browser sends with the page's own fetches: the role check is what refuses these
  const sameOrigin = { origin: new URL(page.url()).origin };
  const refused = [
    await page.request.post("/dashboard-api/api-keys", { headers: sameOrigin, data: { name: "sneaky" } }),
    await page.request.get("/dashboard-api/webhooks"),
    await page.request.put("/dashboard-api/settings", { headers: sameOrigin, data: { features: [] } }),
    await page.request.post("/dashboard-api/team", {
      headers: sameOrigin,
      data: { email: "x@demo.test", role: "admin", password: "long-enough-1" },
    }),
    // publishing and changing an active rule are admin actions
    await page.request.post(`/dashboard-api/rules/${RULE_ID}/status`, {
      headers: sameOrigin,
      data: { status: "inactive" },
    }),
  ];
  for (const res of refused) {
    expect(res.status()).toBe(403);
    expect((await res.json()).error.type).toBe("FORBIDDEN");
  }
  // reading rules is allowed to every role
  const rules = await page.request.get("/dashboard-api/rules");
  expect(rules.status()).toBe(200);
});
