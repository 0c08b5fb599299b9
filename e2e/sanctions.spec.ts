import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { createApiKeyWithCli, demoClientId, signIn } from "./support";

// Sanctions screening in the dashboard: a user whose name matches a listed entity (the seeded
// fixture lists), the hit beside the screened name, a reviewer marking it a false match, and a
// payout to a recipient listed by OFAC in Cyrillic on the transaction page.

const RUN = Date.now().toString(36);
const USER_ID = `e2e-sanctions-user-${RUN}`;
const TX_ID = `e2e-sanctions-tx-${RUN}`;
const SHOTS = "test-results/screens";

let headers: Record<string, string> = {};

test.describe.configure({ mode: "serial" });

const onboardBody = {
  id: USER_ID,
  firstName: "Viktor",
  lastName: "Morozenko",
  dateOfBirth: "1968-04-12",
  email: { email: `${USER_ID}@mail.test` },
};

test.beforeAll(async () => {
  headers = { authorization: `Bearer ${createApiKeyWithCli(await demoClientId())}` };
});

test("a matching user shows the listed entity; a reviewer marks it a false match", async ({
  page,
  request,
}) => {
  const first = await request.post("/v1/user/onboard", {
    headers,
    data: { ...onboardBody, timestamp: Date.now() - 60_000 },
  });
  expect(first.status()).toBe(200);
  const assessment = (await first.json()) as { riskLevel: string; triggered: Array<{ id: string }> };
  expect(assessment.triggered.map((t) => t.id)).toContain("SANCTIONS-USER");

  await signIn(page, DEMO.reviewer);
  await page.goto(`/dashboard/users/${USER_ID}`);
  const card = page.getByTestId("user-sanctions");
  await expect(card).toBeVisible();
  const hit = card.getByTestId("sanctions-hit").first();
  await expect(hit).toContainText("Viktor Morozenko");
  await expect(hit).toContainText("Viktor Aleksandrovich Morozenko");
  await expect(hit).toContainText("matched alias: Viktor Morozenko");
  await expect(hit).toContainText("opensanctions");
  await expect(hit).toContainText("Synthetic Russia-related designations (demo)");
  await expect(hit).toContainText("1.00");
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/sanctions-user-hit.png`, fullPage: true });

  await hit.getByRole("button", { name: "Mark false match" }).click();
  const form = page.getByRole("dialog", { name: /as a false match/ });
  await expect(form.getByLabel("Why is it not this person?")).toBeFocused();
  // opened from a right-aligned table cell, the dialog still reads left to right
  await expect(form.getByRole("heading")).toHaveCSS("text-align", "left");
  // the note is required: an empty confirm says so and records nothing
  await form.getByRole("button", { name: "Confirm false match" }).click();
  await expect(form).toContainText("Write why it is not this person");
  await form
    .getByLabel("Why is it not this person?")
    .fill("Passport checked: different person, born in Minsk");
  await page.screenshot({ path: `${SHOTS}/sanctions-mark-dialog.png`, fullPage: true });
  await form.getByRole("button", { name: "Confirm false match" }).click();

  await expect(hit.getByText("marked false match")).toBeVisible();
  const marks = page.getByTestId("false-matches");
  await expect(marks).toContainText("Viktor Aleksandrovich Morozenko");
  await expect(marks).toContainText("Passport checked: different person");
  await page.screenshot({ path: `${SHOTS}/sanctions-marked.png`, fullPage: true });
  // withdrawing the mark changes screening: it asks first, and Escape leaves the mark in place
  await marks.getByRole("button", { name: "Withdraw" }).click();
  const withdraw = page.getByRole("dialog", { name: /Withdraw the false-match mark/ });
  await expect(withdraw).toContainText("scores for this user again from the next screening");
  await page.keyboard.press("Escape");
  await expect(withdraw).toBeHidden();
  await expect(marks.getByRole("button", { name: "Withdraw" })).toBeFocused();
  await expect(marks).toContainText("Viktor Aleksandrovich Morozenko");

  // the next onboarding of this user no longer matches that entity
  const again = await request.post("/v1/user/onboard", {
    headers,
    data: { ...onboardBody, timestamp: Date.now() - 30_000 },
  });
  expect(
    ((await again.json()) as { triggered: Array<{ id: string }> }).triggered.map((t) => t.id),
  ).not.toContain("SANCTIONS-USER");
  await page.reload();
  await expect(page.getByTestId("false-matches")).toContainText("Viktor Aleksandrovich Morozenko");
  await expect(page.getByTestId("sanctions-hit")).toHaveCount(0);
});

test("a payout to a listed recipient shows the OFAC entity on the transaction page", async ({
  page,
  request,
}) => {
  const res = await request.post("/v1/transaction", {
    headers,
    data: {
      id: TX_ID,
      userId: USER_ID,
      status: "PENDING",
      currencyCode: "EUR",
      amount: 950,
      direction: "payout",
      timestamp: Date.now() - 10_000,
      recipient: { firstName: "Дмитрий", lastName: "Коваленко" },
    },
  });
  expect(res.status()).toBe(200);
  expect(((await res.json()) as { triggered: Array<{ id: string }> }).triggered.map((t) => t.id)).toContain(
    "SANCTIONS-RECIPIENT",
  );

  await signIn(page, DEMO.reviewer);
  await page.goto(`/dashboard/transactions/${TX_ID}`);
  const rule = page.locator('[data-testid="rule-explanation"][data-rule-id="SANCTIONS-RECIPIENT"]');
  const hit = rule.getByTestId("sanctions-hit");
  await expect(hit).toContainText("Дмитрий Коваленко");
  await expect(hit).toContainText("KOVALENKO, Dmitri Petrovich");
  await expect(hit).toContainText("us_ofac_sdn");
  await expect(hit).toContainText("RUSSIA-EO14024");
  await expect(hit).toContainText("9100001");
  await rule.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/sanctions-transaction.png`, fullPage: true });
});

test("admin Settings lists the loaded sanctions datasets", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/settings");
  const table = page.getByTestId("sanctions-datasets");
  await expect(table).toContainText("opensanctions");
  await expect(table).toContainText("us_ofac_sdn");
  await expect(table).toContainText("targets.simple.csv");
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/sanctions-settings.png`, fullPage: true });
});
