import { expect, test, type Page } from "@playwright/test";
import { DEMO } from "../prisma/seed";

// The demo seed holds demo-report-1: an STR whose only gaps are the subject's birthdate and occupation.
const REPORT = "demo-report-1";
const SCREENS = "test-results/screens";

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test.describe.serial("regulatory reports", () => {
  test("an officer completes a draft, edits its indicators and submits it for review", async ({ page }) => {
    await signIn(page, DEMO.officer);
    await page.getByRole("link", { name: "Reports" }).click();
    await expect(page).toHaveURL(/\/dashboard\/reports$/);
    await expect(page.getByTestId("report-row")).toHaveCount(2);
    await page.screenshot({ path: `${SCREENS}/reports-list.png`, fullPage: true });

    // Server-side filters.
    await page.getByTestId("filter-type").selectOption("SAR");
    await page.getByTestId("apply-filters").click();
    await expect(page).toHaveURL(/reportType=SAR/);
    await expect(page.getByTestId("report-row")).toHaveCount(1);
    await page.goto("/dashboard/reports");

    await page.locator(`[data-report-id="${REPORT}"] a`).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/reports/${REPORT}$`));
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "draft");
    const missing = page.getByTestId("missing-field");
    await expect(missing).toHaveCount(4);
    await expect(page.getByTestId("content-missing")).toHaveCount(4);
    await expect(page.getByTestId("goaml-incomplete")).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/report-draft-missing-fields.png`, fullPage: true });

    for (const input of await missing.all()) {
      const path = (await input.getAttribute("data-path")) ?? "";
      await input.fill(path.endsWith("birthdate") ? "1985-06-15T00:00:00" : "Market trader");
    }
    await page.getByTestId("save-fields").click();
    await expect(page.getByTestId("no-missing-fields")).toBeVisible();
    await expect(page.getByTestId("content-missing")).toHaveCount(0);
    await expect(page.getByTestId("goaml-valid")).toBeVisible();

    await page.getByTestId("indicator-STR-RAPID").check();
    await page.getByTestId("save-indicators").click();
    await expect(page.getByTestId("indicators-saved")).toBeVisible();
    await expect(page.getByTestId("report-content")).toContainText("STR-RAPID");
    await page.screenshot({ path: `${SCREENS}/report-completed.png`, fullPage: true });

    await page.getByTestId("transition-pending_review").click();
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "pending_review");
    await expect(page.getByTestId("prepared-by")).toHaveText(DEMO.officer.email);

    // Four-eyes: the preparer cannot file it.
    await expect(page.getByTestId("four-eyes-note")).toBeVisible();
    await page.getByTestId("fiu-reference").fill("FIU-SELF-1");
    await page.getByTestId("transition-submitted").click();
    await expect(page.getByTestId("error-note")).toContainText("cannot file it");
    await page.reload();
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "pending_review");
    await expect(page.getByTestId("fiu-reference-number")).toHaveText("—");
    await page.screenshot({ path: `${SCREENS}/report-pending-review-four-eyes.png`, fullPage: true });
  });

  test("a second officer files it with an FIU reference and downloads the validated goAML XML", async ({
    page,
  }) => {
    await signIn(page, DEMO.officer2);
    await page.goto(`/dashboard/reports/${REPORT}`);
    await expect(page.getByTestId("four-eyes-note")).toHaveCount(0);
    await page.getByTestId("fiu-reference").fill("FIU-2026-0042");
    await page.getByTestId("transition-submitted").click();
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "submitted");
    await expect(page.getByTestId("fiu-reference-number")).toHaveText("FIU-2026-0042");
    await expect(page.getByTestId("filed-by")).toHaveText(DEMO.officer2.email);
    await expect(page.getByTestId("submitted-at")).toBeVisible();

    const download = await page.request.get(`/api/reports/${REPORT}/goaml`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toContain("application/xml");
    const xml = await download.text();
    expect(xml).toContain("<report_code>STR</report_code>");
    expect(xml).toContain("<indicator>STR-RAPID</indicator>");

    await page.reload();
    await expect(page.getByTestId("audit-chain")).toHaveAttribute("data-valid", "true");
    await expect(page.locator('[data-testid="audit-entry"][data-action="goaml_downloaded"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="audit-entry"][data-action="status_changed"]')).toHaveCount(2);
    await page.screenshot({ path: `${SCREENS}/report-submitted.png`, fullPage: true });

    await page.goto("/dashboard/reports?status=submitted");
    await expect(page.getByTestId("report-row")).toHaveCount(1);
    await expect(page.getByTestId("report-row")).toContainText("FIU-2026-0042");
  });

  test("a reviewer cannot reach reports", async ({ page }) => {
    await signIn(page, DEMO.reviewer);
    await expect(page.getByRole("link", { name: "Reports" })).toHaveCount(0);
    await page.goto("/dashboard/reports");
    await expect(page).toHaveURL(/\/dashboard\/forbidden/);
    await expect(page.getByTestId("forbidden")).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/reports-forbidden-reviewer.png`, fullPage: true });
    await page.goto(`/dashboard/reports/${REPORT}`);
    await expect(page).toHaveURL(/\/dashboard\/forbidden/);
    expect((await page.request.get(`/api/reports/${REPORT}/goaml`)).status()).toBe(403);
  });
});
