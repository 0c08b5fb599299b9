// In the browser: sign-in without JavaScript at 127.0.0.1, security headers, a CSP every page
// passes, sign-in locks an admin lifts, the webhook delivery log after connection errors, error bodies.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { DEMO } from "../prisma/seed";
import { createApiKeyWithCli, demoClientId, E2E_DATABASE_URL, signIn } from "./support";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const AT_IP = `http://127.0.0.1:${PORT}`;

async function sql<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await db.connect();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}

// Failed sign-ins here count against 127.0.0.1 like any other client address: leave none behind.
test.afterAll(async () => {
  await sql(`DELETE FROM sign_in_throttles`);
});

test("the login form posts without JavaScript at 127.0.0.1, and no credentials reach a URL", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: AT_IP });
  const page = await context.newPage();
  const seen: Array<{ method: string; url: string }> = [];
  page.on("request", (r) => seen.push({ method: r.method(), url: r.url() }));

  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO.reviewer.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login\?.*error=CredentialsSignin/);
  await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");

  await page.getByLabel("Email").fill(DEMO.reviewer.email);
  await page.getByLabel("Password").fill(DEMO.reviewer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${AT_IP}/dashboard/cases`);
  await expect(page.getByText(DEMO.reviewer.email).first()).toBeVisible();
  await page.screenshot({ path: "test-results/screens/login-no-js-signed-in.png", fullPage: true });

  const posts = seen.filter((r) => r.url.endsWith("/api/auth/callback/credentials"));
  expect(posts.map((r) => r.method)).toEqual(["POST", "POST"]);
  for (const { url } of seen) {
    expect(url).not.toContain("password");
    expect(url).not.toContain(DEMO.reviewer.password);
    expect(url).not.toContain("not-the-password");
    expect(decodeURIComponent(url)).not.toContain(DEMO.reviewer.email);
  }
  await context.close();
});

test("security headers on the dashboard, the docs and the API", async ({ page, request }) => {
  const common = (headers: Record<string, string>) => {
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    // the e2e server runs in production mode
    expect(headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  };
  const nonces = new Set<string>();
  for (const path of ["/login", "/docs"]) {
    for (let i = 0; i < 2; i++) {
      const res = await request.get(path);
      expect(res.status()).toBe(200);
      const headers = res.headers();
      common(headers);
      const csp = headers["content-security-policy"]!;
      const nonce = /script-src 'self' 'nonce-([^']+)' 'strict-dynamic'/.exec(csp)?.[1];
      expect(nonce, csp).toBeTruthy();
      expect(csp).not.toContain("unsafe-eval");
      // no inline <style> element may run (only inline style attributes, which have no selectors)
      expect(csp).toMatch(/style-src 'self'; style-src-elem 'self' 'sha256-[^']+';/);
      expect(csp).toContain("style-src-attr 'unsafe-inline'");
      // the page's scripts carry this response's nonce
      expect(await res.text()).toContain(`nonce="${nonce}"`);
      nonces.add(nonce!);
    }
  }
  expect(nonces.size).toBe(4);

  for (const [path, status] of [
    ["/v1/openapi.json", 200],
    ["/v1/transaction/t-1", 401],
    ["/dashboard-api/team", 401],
    ["/api/auth/csrf", 200],
  ] as const) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(status);
    common(res.headers());
    expect(res.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  }

  await signIn(page, DEMO.admin);
  const res = await page.goto("/dashboard/team");
  common(res!.headers());
  expect(res!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
});

async function collectViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy|CSP violation|Refused to/i.test(m.text()))
      violations.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => violations.push(`page error: ${e.message}`));
  return violations;
}

test("every dashboard page and /docs run under the CSP without a violation, scripts working", async ({
  page,
}) => {
  const violations = await collectViolations(page);
  const clientId = await demoClientId();
  const first = async (table: string, column = "id") =>
    (
      await sql<{ id: string }>(`SELECT "${column}" AS id FROM "${table}" WHERE "clientId" = $1 LIMIT 1`, [
        clientId,
      ])
    )[0]?.id;
  const ids = {
    transaction: await first("transactions"),
    user: await first("users"),
    rule: await first("rules", "ruleId"),
    report: await first("reports"),
    list: await first("lists"),
  };
  expect(ids.transaction && ids.user && ids.rule && ids.report && ids.list, JSON.stringify(ids)).toBeTruthy();

  await signIn(page, DEMO.admin);
  const pages = [
    "/dashboard",
    "/dashboard/alerts",
    "/dashboard/transactions",
    `/dashboard/transactions/${encodeURIComponent(ids.transaction!)}`,
    "/dashboard/users",
    `/dashboard/users/${encodeURIComponent(ids.user!)}`,
    "/dashboard/rules",
    "/dashboard/rules/new",
    `/dashboard/rules/${encodeURIComponent(ids.rule!)}`,
    "/dashboard/reports",
    `/dashboard/reports/${encodeURIComponent(ids.report!)}`,
    "/dashboard/settings",
    "/dashboard/team",
    "/dashboard/webhooks",
    "/dashboard/api-keys",
    "/dashboard/lists",
    `/dashboard/lists/${encodeURIComponent(ids.list!)}`,
    "/docs",
  ];
  for (const path of pages) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await page.waitForLoadState("networkidle");
  }
  // client components hydrated under the CSP: a React-driven control reacts
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("Failed only").check();
  await expect(page.getByLabel("Failed only")).toBeChecked();
  await page.goto("/docs");
  await page.locator("summary").first().click();
  await page.screenshot({ path: "test-results/screens/docs-under-csp.png" });
  expect(violations).toEqual([]);
});

test("a locked sign-in is refused the same as an unknown email, and an admin lifts it", async ({
  browser,
  page,
}) => {
  const reviewerKey = `account:${DEMO.officer2.email}`;
  await sql(
    `INSERT INTO sign_in_throttles (key, failures, "lastFailureAt", "lockedAt") VALUES ($1, 10, now(), now())`,
    [reviewerKey],
  );
  await sql(
    `INSERT INTO sign_in_throttles (key, failures, "lastFailureAt", "lockedAt") VALUES ($1, 10, now(), now())`,
    ["account:nobody@demo.test"],
  );
  const other = await browser.newContext();
  const visitor = await other.newPage();
  const answers: string[] = [];
  for (const who of [DEMO.officer2, { email: "nobody@demo.test", password: "whatever-it-is" }]) {
    await visitor.goto("/login");
    await visitor.getByLabel("Email").fill(who.email);
    await visitor.getByLabel("Password").fill(who.password);
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await expect(visitor).toHaveURL(/error=SignInLocked/);
    answers.push(await visitor.getByTestId("login-error").innerText());
  }
  expect(answers[0]).toBe(answers[1]);
  expect(answers[0]).toContain("Sign-in is locked after repeated failures");
  await visitor.screenshot({ path: "test-results/screens/login-locked.png" });

  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/team");
  const row = page.getByTestId("team-row").filter({ hasText: DEMO.officer2.email });
  await expect(row).toContainText("Sign-in locked");
  await page.screenshot({ path: "test-results/screens/team-locked.png", fullPage: true });
  await row.getByRole("button", { name: "Unlock sign-in" }).click();
  await expect(row).toContainText("Active");
  await expect(row.getByRole("button", { name: "Unlock sign-in" })).toHaveCount(0);
  const audit = await sql<{ action: string }>(
    `SELECT action FROM audit_logs WHERE action = 'dashboard_user.unlocked' AND "entityId" =
       (SELECT id FROM dashboard_users WHERE email = $1)`,
    [DEMO.officer2.email],
  );
  expect(audit).toHaveLength(1);

  await visitor.goto("/login");
  await visitor.getByLabel("Email").fill(DEMO.officer2.email);
  await visitor.getByLabel("Password").fill(DEMO.officer2.password);
  await visitor.getByRole("button", { name: "Sign in" }).click();
  await expect(visitor).toHaveURL(/\/dashboard(\/cases|\/reports)?$/);
  await other.close();
});

// A page on another port of the same host is "same site": the browser sends the SameSite=Lax session cookie
// with its form posts. The dashboard API must refuse them all the same.
test("a same-site page's form post to the dashboard API is refused, and creates nothing", async ({
  page,
}) => {
  const target = new URL("/dashboard-api/team", test.info().project.use.baseURL).toString();
  const forged = `{"email":"forged-admin@evil.test","role":"admin","password":"long-enough-1","x":"`;
  const html = `<!doctype html><html><body>
    <form id="f" method="post" action="${target}" enctype="text/plain">
      <input type="hidden" name='${forged}' value='"}'>
    </form>
    <script>document.getElementById("f").submit()</script></body></html>`;
  const evil = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(html);
  });
  await new Promise<void>((resolve) => evil.listen(0, "localhost", resolve));
  const port = (evil.address() as AddressInfo).port;
  try {
    await signIn(page, DEMO.admin);
    const answer = page.waitForResponse((r) => r.url() === target && r.request().method() === "POST");
    await page.goto(`http://localhost:${port}/`);
    const res = await answer;
    // the session cookie did travel: without the Origin check this created an admin
    expect((await res.request().allHeaders())["cookie"]).toContain("next-auth.session-token");
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /^Cross-origin request refused/,
    );
    await page.screenshot({ path: "test-results/screens/forged-form-refused.png" });
  } finally {
    evil.close();
  }
  expect(await sql(`SELECT id FROM dashboard_users WHERE email = 'forged-admin@evil.test'`, [])).toHaveLength(
    0,
  );
});

test("connection errors show as retrying then failed, the filter finds them, redeliver is offered", async ({
  page,
  request,
}) => {
  const apiKey = createApiKeyWithCli(await demoClientId());
  // nothing listens on port 9 (discard): every attempt is a refused connection
  const url = `http://127.0.0.1:9/hook-${Date.now()}`;
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/webhooks");
  await page.getByLabel("URL").fill("127.0.0.1/hook");
  await page.getByLabel("transaction.screened").check();
  await page.getByRole("button", { name: "Create subscription" }).click();
  await expect(page.getByTestId("error-note")).toHaveText(
    "The URL must be an absolute http or https URL, such as https://example.com/webhooks.",
  );
  await page.getByLabel("URL").fill(url);
  await page.getByRole("button", { name: "Create subscription" }).click();
  await expect(page.getByTestId("subscription-row").filter({ hasText: url })).toBeVisible();

  const res = await request.post("/v1/transaction", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      id: `e2e-refused-${Date.now()}`,
      userId: "e2e-hooks",
      status: "PENDING",
      currencyCode: "EUR",
      amount: 5,
      timestamp: Date.now(),
    },
  });
  expect(res.status()).toBe(200);

  await page.getByLabel("Failed only").check();
  const row = page.getByTestId("delivery-row").filter({ hasText: url }).first();
  await expect(row).toHaveAttribute("data-state", "failed", { timeout: 45_000 });
  await expect(row).toContainText("#3");
  await expect(row).toContainText("no response");
  await expect(row.getByRole("button", { name: "Redeliver" })).toBeVisible();
  // the log fits its card: no horizontal scrolling, every attempt entry inside the visible table
  const clipped = await row.evaluate((tr) => {
    const box = tr.closest(".overflow-x-auto")!;
    const edge = box.getBoundingClientRect().right;
    const items = [...tr.querySelectorAll("li")].filter((li) => li.getBoundingClientRect().right > edge + 1);
    return { scrolls: box.scrollWidth > box.clientWidth + 1, outside: items.length };
  });
  expect(clipped).toEqual({ scrolls: false, outside: 0 });
  await page.screenshot({ path: "test-results/screens/webhook-connection-failed.png", fullPage: true });

  await row.getByRole("button", { name: "Redeliver" }).click();
  // requeued, tried again, refused again: retrying with a next-attempt time, or failed once more
  await expect(row).toHaveAttribute("data-state", /retrying|failed/, { timeout: 30_000 });
  await expect(row).toContainText("#4", { timeout: 30_000 });
});

test("the goAML download answers errors in the service's error body", async ({ page, request }) => {
  const anonymous = await request.get("/api/reports/nope/goaml");
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toMatchObject({
    error: { type: "UNAUTHORIZED" },
    timestamp: expect.any(Number),
  });

  await signIn(page, DEMO.admin);
  const missing = await page.request.get("/api/reports/no-such-report/goaml");
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({
    error: { type: "NOT_FOUND", message: "Report not found" },
    timestamp: expect.any(Number),
  });
});
