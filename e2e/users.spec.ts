import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { createApiKeyWithCli, demoClientId, expectNoAxeViolations, signIn } from "./support";

// People-first lists: the users list shows each user's risk to act on, the open cases and alerts and the last
// activity, the name links to the user page, and the transactions list filters by a user picked by name.

const RUN = Date.now().toString(36);
const USER_ID = `e2e-people-${RUN}`;
const OTHER_ID = `e2e-people-other-${RUN}`;
const SHOTS = "test-results/screens";

test.beforeAll(async ({ request }) => {
  const headers = { authorization: `Bearer ${createApiKeyWithCli(await demoClientId())}` };
  for (const [id, firstName] of [
    [USER_ID, "Zelda"],
    [OTHER_ID, "Yusuf"],
  ] as const) {
    const res = await request.post("/v1/user", {
      headers,
      data: { id, firstName, lastName: `People${RUN}`, timestamp: Date.now() - 86_400_000 },
    });
    expect(res.status()).toBe(200);
  }
  // 60,000 USD fires the demo's large-amount rules for Zelda; Yusuf pays a little
  for (const [id, userId, amount] of [
    [`e2e-people-tx-${RUN}`, USER_ID, 60_000],
    [`e2e-people-tx2-${RUN}`, OTHER_ID, 12],
  ] as const) {
    const res = await request.post("/v1/transaction", {
      headers,
      data: { id, userId, status: "PENDING", currencyCode: "USD", amount, timestamp: Date.now() - 60_000 },
    });
    expect(res.status()).toBe(200);
  }
});

test("the users list shows risk, open alerts and activity, and names lead to the user", async ({ page }) => {
  await signIn(page, DEMO.reviewer);
  await page.goto("/dashboard/users");
  await page.getByLabel("Search").fill(`zelda`);
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByTestId("user-row").filter({ hasText: USER_ID });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Zelda People");
  await expect(row).toContainText("highest open alert");
  await expect(row).toContainText(/Very high|High/);
  await expect(row.locator("td").nth(3)).toContainText("1 case");
  await expect(row.locator("td").nth(3)).toContainText("to settle");
  await expect(row).toContainText(String(new Date().getUTCFullYear()));
  await page.screenshot({ path: `${SHOTS}/users-list.png`, fullPage: true });
  await expectNoAxeViolations(page);
  await row.getByRole("link", { name: /Zelda People/ }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/users/${USER_ID}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(USER_ID);
  await expect(page.getByTestId("transaction-row")).toContainText("60,000.00 USD");
});

test("the transactions list filters by a user picked by name", async ({ page }) => {
  await signIn(page, DEMO.reviewer);
  await page.goto("/dashboard/transactions");
  const filter = page.getByLabel("User");
  await filter.fill(`Yusuf`);
  // the suggestions are the users whose name starts so; picking one applies the filter
  await expect(page.locator("datalist option")).toHaveCount(1);
  await expect(page.locator("datalist option")).toHaveAttribute("value", OTHER_ID);
  await filter.fill(OTHER_ID);
  await expect(page).toHaveURL(new RegExp(`userId=${OTHER_ID}`));
  await expect(page.getByTestId("transaction-row")).toHaveCount(1);
  await expect(page.getByTestId("transaction-row")).toContainText("12.00 USD");
  await page.screenshot({ path: `${SHOTS}/transactions-user-filter.png`, fullPage: true });
  await page.reload();
  await expect(page.getByLabel("User")).toHaveValue(OTHER_ID);
  await expect(page.getByTestId("transaction-row")).toHaveCount(1);
});
