import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";

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
