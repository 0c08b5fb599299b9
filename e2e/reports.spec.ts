import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { demoFiuSchema } from "../lib/reports/demo-reports";
import { DEMO } from "../prisma/seed";

// The demo seed holds demo-report-1: an STR of two payouts by the same customer, Daniel Kamau, whose birthdate and
// occupation are not on record. The client's goAML schema is the demo FIU's (generic 5.0.1 with its indicator list).
const REPORT = "demo-report-1";
const SCREENS = "test-results/screens";

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard(\/cases|\/reports)?$/);
}

const group = (page: Page, title: string) =>
  page.locator(`[data-testid="editor-group"][data-group-title="${title}"]`);
const field = (page: Page, groupTitle: string, label: string) =>
  group(page, groupTitle).locator(`[data-testid="editor-field"][data-label="${label}"]`);

test.describe.serial("regulatory reports", () => {
  // Long flows with full-page screenshots on a shared two-core machine.
  test.describe.configure({ timeout: 180_000 });
  test("an officer corrects a wrongly typed value, fills the grouped customer once and gets a valid file", async ({
    page,
  }) => {
    await signIn(page, DEMO.officer);
    await page.getByRole("link", { name: "Reports" }).click();
    await expect(page).toHaveURL(/\/dashboard\/reports$/);
    // the two demo reports (an escalated case in another spec may have added its own draft)
    await expect(page.locator('[data-report-id^="demo-report-"]')).toHaveCount(2);

    // Server-side filters.
    await page.getByTestId("filter-type").selectOption("SAR");
    await page.getByTestId("apply-filters").click();
    await expect(page).toHaveURL(/reportType=SAR/);
    await expect(page.getByTestId("report-row")).toHaveCount(1);
    await page.goto("/dashboard/reports");

    await page.locator(`[data-report-id="${REPORT}"] a`).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/reports/${REPORT}$`));
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "draft");

    // One verdict: what is missing, in words, each a link to its field; no "valid" claim anywhere.
    const verdict = page.getByTestId("goaml-verdict");
    await expect(verdict).toHaveAttribute("data-valid", "false");
    await expect(page.getByTestId("verdict-item")).toHaveText([
      "Daniel Kamau · Date of birth is missing (in 2 places)",
      "Daniel Kamau · Occupation is missing (in 2 places)",
    ]);
    await expect(page.getByTestId("goaml-valid")).toHaveCount(0);
    await expect(page.getByTestId("transition-pending_review")).toBeDisabled();
    await expect(page.getByTestId("review-blocked")).toContainText("Daniel Kamau · Date of birth is missing");

    // The customer of both payouts is one group of fields.
    await expect(group(page, "Daniel Kamau")).toHaveCount(1);
    await expect(group(page, "Daniel Kamau").getByTestId("group-where")).toHaveText(
      "Appears 2 times: Transaction 1 · sender; Transaction 2 · sender",
    );
    await page.screenshot({ path: `${SCREENS}/report-draft-verdict.png`, fullPage: true });
    await page.screenshot({ path: `${SCREENS}/report-draft-top.png` });
    await group(page, "Daniel Kamau").screenshot({ path: `${SCREENS}/report-draft-customer-group.png` });

    // A wrongly typed amount is refused in words and nothing is stored; the value stays there to be corrected.
    const amount = field(page, "Transaction 1 (demo-report-tx-1)", "Amount in local currency").getByTestId(
      "editor-input",
    );
    await expect(amount).toHaveValue("1950000");
    await amount.fill("abc");
    await group(page, "Transaction 1 (demo-report-tx-1)").getByTestId("save-group").click();
    await expect(
      field(page, "Transaction 1 (demo-report-tx-1)", "Amount in local currency").getByTestId("field-error"),
    ).toHaveText(
      "Amount in local currency must be a number such as 1250.50 or 1,250.50 (a point before the decimals)",
    );
    await expect(group(page, "Transaction 1 (demo-report-tx-1)").getByTestId("error-note")).toContainText(
      "Nothing was saved",
    );
    await expect(amount).toHaveValue("abc");
    await group(page, "Transaction 1 (demo-report-tx-1)").screenshot({
      path: `${SCREENS}/report-wrong-value-refused.png`,
    });
    // grouped as people write amounts, stored as goAML writes them
    await amount.fill("1,950,000.00");
    await group(page, "Transaction 1 (demo-report-tx-1)").getByTestId("save-group").click();
    await expect(group(page, "Transaction 1 (demo-report-tx-1)").getByTestId("group-saved")).toBeVisible();
    await expect(amount).toHaveValue("1950000.00");

    // The grouped customer: a date input for the birth date, both fields typed once for both payouts.
    await page.getByRole("link", { name: "Daniel Kamau · Date of birth is missing (in 2 places)" }).click();
    const birth = field(page, "Daniel Kamau", "Date of birth").getByTestId("editor-input");
    await expect(birth).toBeInViewport();
    await expect(birth).toHaveAttribute("type", "date");
    await birth.fill("1985-06-15");
    await field(page, "Daniel Kamau", "Occupation").getByTestId("editor-input").fill("Market trader");
    await expect(group(page, "Daniel Kamau").getByTestId("save-group")).toHaveText("Save (applies to all 2)");
    await group(page, "Daniel Kamau").getByTestId("save-group").click();

    await expect(verdict).toHaveAttribute("data-valid", "true");
    await expect(page.getByTestId("goaml-valid")).toHaveText("Valid against Demo FIU goAML 5.0.1.");
    await expect(page.getByTestId("verdict-item")).toHaveCount(0);
    // a date is shown as a date
    await expect(birth).toHaveValue("1985-06-15");
    // Filled fields stay editable in a draft.
    await expect(field(page, "Daniel Kamau", "Nationality").getByTestId("editor-input")).toBeEnabled();

    // Indicators: the schema's list, searchable, with the fired rules' suggestions.
    await expect(page.getByTestId("indicator-suggestions")).toContainText("STR-PROFILE");
    await page.getByTestId("suggest-STR-PROFILE").click();
    await page.getByTestId("indicator-search").fill("rapid");
    await expect(page.locator('[data-testid^="indicator-STR-"]')).toHaveCount(1);
    await page.getByTestId("indicator-STR-RAPID").check();
    await page.getByTestId("save-indicators").click();
    await expect(page.getByTestId("indicators-saved")).toBeVisible();
    await expect(page.getByTestId("report-content")).toContainText("STR-RAPID");
    await expect(verdict).toHaveAttribute("data-valid", "true");
    await page.screenshot({ path: `${SCREENS}/report-valid.png`, fullPage: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SCREENS}/report-valid-top.png` });

    await page.getByTestId("transition-pending_review").click();
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "pending_review");
    // people by display name, the email on hover
    await expect(page.getByTestId("prepared-by")).toHaveText("Olga Officer");
    await expect(page.getByTestId("prepared-by").getByTitle(DEMO.officer.email)).toBeVisible();

    // Four-eyes: File is disabled for the preparer, with the reason in full.
    await expect(page.getByTestId("transition-submitted")).toBeDisabled();
    await expect(page.getByTestId("four-eyes-note")).toHaveText(
      "You prepared this report and sent it for review, so you cannot file it yourself: the four-eyes rule needs another reporting officer to check and file it",
    );
    // Archiving is final: a click asks first, and Cancel leaves the report where it was.
    await page.getByTestId("transition-archived").click();
    const archive = page.getByRole("dialog", { name: "Archive this report?" });
    await expect(archive).toContainText("cannot be edited, reviewed or filed any more");
    await archive.getByRole("button", { name: "Cancel" }).click();
    await expect(archive).toBeHidden();
    await expect(page.getByTestId("transition-archived")).toBeFocused();
    // (A filing posted anyway is refused and audited: tests/integration/reports-goaml.test.ts.)
    await page.reload();
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "pending_review");
    await expect(page.getByTestId("fiu-reference-number")).toHaveText("—");
    await page.getByTestId("four-eyes-note").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/report-pending-review-four-eyes.png` });
  });

  test("a second officer files it and downloads the goAML XML, which xmllint accepts", async ({ page }) => {
    await signIn(page, DEMO.officer2);
    await page.goto(`/dashboard/reports/${REPORT}`);
    await expect(page.getByTestId("four-eyes-note")).toHaveCount(0);
    await page.getByTestId("fiu-reference").fill("FIU-2026-0042");
    await page.getByTestId("transition-submitted").click();
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "submitted");
    await expect(page.getByTestId("fiu-reference-number")).toHaveText("FIU-2026-0042");
    await expect(page.getByTestId("filed-by")).toHaveText("Omar Officer");
    await expect(page.getByTestId("submitted-at")).toBeVisible();

    const download = await page.request.get(`/api/reports/${REPORT}/goaml`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toContain("application/xml");
    const xml = await download.text();
    expect(xml).toContain("<report_code>STR</report_code>");
    expect(xml).toContain("<indicator>STR-RAPID</indicator>");
    expect(xml).toContain("<amount_local>1950000.00</amount_local>");
    expect(xml.match(/<birthdate>1985-06-15T00:00:00<\/birthdate>/g)).toHaveLength(2);
    const dir = mkdtempSync(path.join(tmpdir(), "e2e-goaml-"));
    writeFileSync(path.join(dir, "schema.xsd"), demoFiuSchema());
    writeFileSync(path.join(dir, "report.xml"), xml);
    execFileSync(
      "/usr/bin/xmllint",
      ["--noout", "--schema", path.join(dir, "schema.xsd"), path.join(dir, "report.xml")],
      {
        stdio: "pipe",
      },
    );

    await page.reload();
    await expect(page.getByTestId("audit-chain")).toHaveAttribute("data-valid", "true");
    // The audit view shows changes by default; reads and downloads are a filter away.
    await expect(page.locator('[data-testid="audit-entry"][data-action="status_changed"]')).toHaveCount(2);
    await expect(page.locator('[data-testid="audit-entry"][data-action="read"]')).toHaveCount(0);
    await page
      .getByTestId("audit-filter")
      .locator("../..")
      .screenshot({
        path: `${SCREENS}/report-audit-changes.png`,
      });
    await page.getByTestId("audit-filter-reads").click();
    await expect(page.locator('[data-testid="audit-entry"][data-action="goaml_downloaded"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="audit-entry"][data-action="status_changed"]')).toHaveCount(0);
    await page
      .getByTestId("audit-filter")
      .locator("../..")
      .screenshot({ path: `${SCREENS}/report-audit-reads.png` });

    await page.goto("/dashboard/reports?status=submitted");
    // (the editor spec files a report of its own)
    await expect(page.getByTestId("report-row").filter({ hasText: "FIU-2026-0042" })).toHaveCount(1);
    await expect(page.locator('[data-report-id="demo-report-1"]')).toBeVisible();
  });

  test("a reviewer cannot reach reports", async ({ page }) => {
    await signIn(page, DEMO.reviewer);
    await expect(page.getByRole("link", { name: "Reports" })).toHaveCount(0);
    await page.goto("/dashboard/reports");
    await expect(page).toHaveURL(/\/dashboard\/forbidden/);
    await expect(page.getByTestId("forbidden")).toBeVisible();
    await page.goto(`/dashboard/reports/${REPORT}`);
    await expect(page).toHaveURL(/\/dashboard\/forbidden/);
    expect((await page.request.get(`/api/reports/${REPORT}/goaml`)).status()).toBe(403);
  });
});
