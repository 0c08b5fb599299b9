import { expect as baseExpect, test, type Page } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { createApiKeyWithCli, demoClientId } from "./support";

// A value the FIU's schema accepts but a regulator would question (a negative amount): the officer sees an amber
// warning next to the field and in the verdict, is asked for a note on "Submit for review", confirms, and the
// report moves on with the confirmation in its audit trail.
const SCREENS = "test-results/screens";
const expect = baseExpect.configure({ timeout: 20_000 });
const FIRST = "مريم";
const LAST = "Wanjiru-Abdulrahman-Oluwaseun-Kamau-Otieno-Mwangi-Njoroge-Kariuki-Mutua-Ochieng-Kiprono";

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard(\/cases|\/reports)?$/);
}

const byPath = (page: Page, path: string) =>
  page.locator(`[data-testid="editor-field"]:has([data-testid="editor-input"][data-paths~="${path}"])`);

test("an officer confirms a negative amount with a note before review", async ({ page }) => {
  test.setTimeout(180_000);
  const apiKey = createApiKeyWithCli(await demoClientId());
  const now = Date.now();
  const res = await page.request.post("/v1/report", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      reportType: "STR",
      indicators: ["STR-STRUCT"],
      user: {
        id: "e2e-warnings-subject",
        timestamp: now - 86_400_000,
        firstName: FIRST,
        lastName: LAST,
        dateOfBirth: "1985-03-14",
        phone: { phone: "+254711999888", country: "KE" },
        address: { postalCode: "00200", country: "KE", city: "Nairobi", street: "12 Moi Avenue" },
        documents: [{ type: "national_id", number: "29384756", country: "KE" }],
      },
      transactions: [
        {
          id: "e2e-warnings-tx-1",
          userId: "e2e-warnings-subject",
          status: "APPROVED",
          currencyCode: "KES",
          amount: 1_950_000,
          timestamp: now - 3_600_000,
          direction: "payout",
          actionType: "withdrawal",
          paymentMethod: "bank",
          bank: { bankName: "Harbour Bank", routingNumber: "HB001", accountNumber: "001234569" },
          recipient: {
            firstName: "Peter",
            lastName: "Otieno",
            address: { postalCode: "80100", country: "KE", city: "Mombasa" },
            paymentMethod: "bank",
            bank: { bankName: "Harbour Bank", routingNumber: "HB001", accountNumber: "001234569" },
          },
        },
      ],
    },
  });
  expect(res.status()).toBe(200);
  const reportId = ((await res.json()) as { reportId: string }).reportId;

  await signIn(page, DEMO.officer);
  await page.goto(`/dashboard/reports/${reportId}`);
  const verdict = page.getByTestId("goaml-verdict");
  // Complete what the demo schema still wants, so only the warning stands between the draft and review.
  const occupation = page.locator(
    '[data-testid="editor-input"][data-paths*="t_from_my_client.from_person.occupation"]',
  );
  if ((await occupation.count()) > 0) {
    await occupation.first().fill("Market trader");
    await page
      .locator('[data-testid="editor-group"]', { has: occupation.first() })
      .getByTestId("save-group")
      .click();
  }
  await expect(verdict).toHaveAttribute("data-valid", "true");
  await expect(page.getByTestId("report-warnings")).toHaveCount(0);

  const amount = byPath(page, "transactions[0].amount_local");
  await amount.getByTestId("editor-input").fill("-5");
  await page.locator('[data-testid="editor-group"]', { has: amount }).getByTestId("save-group").click();
  await expect(amount.getByTestId("field-warning")).toContainText(
    "The amount is negative (-5): an FIU expects a positive amount",
  );
  await expect(amount.getByTestId("field-error")).toHaveCount(0);
  // a warning never makes the file invalid
  await expect(verdict).toHaveAttribute("data-valid", "true");
  await expect(page.getByTestId("report-warnings")).toContainText("1 warning to confirm");
  await expect(page.getByTestId("warning-item")).toHaveAttribute("data-path", "transactions[0].amount_local");
  await amount.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/warnings-field.png`, fullPage: true });
  await page
    .locator('[data-testid="editor-group"]', { has: amount })
    .screenshot({ path: `${SCREENS}/warnings-field-group.png` });
  await verdict.screenshot({ path: `${SCREENS}/warnings-verdict.png` });

  await page.getByTestId("transition-pending_review").click();
  const dialog = page.getByTestId("warnings-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("warnings-dialog-list")).toContainText("The amount is negative (-5)");
  await dialog.getByRole("button", { name: "Confirm and submit for review" }).click();
  await expect(dialog.getByTestId("dialog-problem")).toContainText("Write why these values are right");
  await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "draft");
  await dialog.getByRole("textbox").fill("Reversal of a duplicate payout — تم التأكيد مع الفرع");
  await dialog.screenshot({ path: `${SCREENS}/warnings-dialog.png` });
  await dialog.getByRole("button", { name: "Confirm and submit for review" }).click();
  await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "pending_review", {
    timeout: 30_000,
  });
  await expect(dialog).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("report-warnings")).toContainText("confirmed with a note");
  await expect(page.getByTestId("audit-chain")).toHaveAttribute("data-valid", "true");
  await expect(
    page.getByTestId("audit-entry").filter({ hasText: "Reversal of a duplicate payout" }).first(),
  ).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/warnings-confirmed.png`, fullPage: true });
  await page
    .getByTestId("audit-entry")
    .filter({ hasText: "Reversal of a duplicate payout" })
    .first()
    .screenshot({ path: `${SCREENS}/warnings-audit-entry.png` });
});
