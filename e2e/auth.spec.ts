import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { DEMO } from "../prisma/seed";
import { E2E_DATABASE_URL } from "./support";

test("sign in, see the dashboard, sign out", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(DEMO.admin.email);
  await page.getByLabel("Password").fill(DEMO.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("current-user")).toHaveText(DEMO.admin.email);
  await page.screenshot({ path: "test-results/screens/dashboard-overview.png", fullPage: true });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
});

test("a wrong password is refused", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(DEMO.admin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/login/);
  await page.screenshot({ path: "test-results/screens/login-wrong-password.png" });
});

test("the API reference is public", async ({ page, request }) => {
  const res = await request.get("/v1/openapi.json");
  expect(res.status()).toBe(200);
  expect((await res.json()).openapi).toBe("3.1.0");
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "Risk Screening Service API" })).toBeVisible();
});

test("one email in two organisations: the sign-in asks which, and opens the one named", async ({ page }) => {
  const db = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await db.connect();
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT DISTINCT ON ("name") "id", "name" FROM "clients" WHERE "name" = ANY($1) ORDER BY "name", "createdAt"`,
    [[DEMO.clientName, DEMO.business.clientName]],
  );
  await db.end();
  expect(rows).toHaveLength(2);
  const email = `two-organisations-${Date.now()}@demo.test`;
  const password = "one password for both";
  for (const client of rows)
    execFileSync(
      "npx",
      [
        "tsx",
        "lib/cli/main.ts",
        "user",
        "create",
        "--client",
        client.id,
        "--email",
        email,
        "--password",
        password,
        "--role",
        "reviewer",
      ],
      { env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL }, encoding: "utf8" },
    );

  await page.goto("/login");
  await expect(page.getByLabel("Organisation")).toHaveCount(0);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText(
    "This email and password open more than one organisation. Type the name of the one to sign in to.",
  );
  await page.screenshot({ path: "test-results/screens/login-choose-organisation.png" });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Organisation").fill(DEMO.business.clientName.toLowerCase());
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByTestId("current-user")).toHaveText(email);
  await expect(page.getByText(DEMO.business.clientName, { exact: true })).toBeVisible();
});
