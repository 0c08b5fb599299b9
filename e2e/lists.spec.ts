import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import {
  createApiKeyWithCli,
  demoClientId,
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  signIn,
} from "./support";

// Lists end to end: an admin creates a list, uploads a CSV, searches, removes an entry and downloads the
// list; a transaction in KES shows its base amount in USD and the rate used.

const SHOTS = "test-results/lists";
const CSV = "value,note\nemu-farm-1,emulator farm\nemu-farm-2,emulator farm\nphone-77,reported stolen\n";

test.describe.configure({ mode: "serial" });

test("an admin creates a list, uploads a CSV, searches, removes an entry and downloads it", async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  await page.getByRole("link", { name: "Lists" }).click();
  await expect(page).toHaveURL(/\/dashboard\/lists$/);
  // the seeded demo lists, with their entry counts
  const demoRow = page.getByTestId("list-row").filter({ hasText: "blocked_emails" });
  await expect(demoRow).toContainText("Email address");
  await expect(demoRow).toContainText("2");
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/lists-index.png`, fullPage: true });

  await page.getByTestId("new-list").click();
  const dialog = page.getByRole("dialog", { name: "New list" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Name/).fill("e2e_devices");
  await dialog.getByLabel("Kind of values").selectOption({ label: "Device ID" });
  await dialog.getByLabel("Description").fill("Devices seen in fraud rings");
  await page.screenshot({ path: `${SHOTS}/lists-create-dialog.png`, fullPage: true });
  await dialog.getByRole("button", { name: "Create list" }).click();
  await expect(page.getByRole("heading", { name: "List e2e_devices" })).toBeVisible();
  await expect(page.getByTestId("entry-count")).toHaveText("0");

  await page.getByRole("button", { name: "Upload CSV" }).click();
  const upload = page.getByRole("dialog", { name: "Upload CSV" });
  await upload
    .getByLabel("CSV file")
    .setInputFiles({ name: "devices.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await upload.getByRole("button", { name: "Upload" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Imported 3 entries from devices.csv." }),
  ).toBeVisible();
  await expect(page.getByTestId("entry-count")).toHaveText("3");
  await expect(page.getByTestId("entry-row")).toHaveCount(3);

  await page.getByLabel("Search entries").fill("EMU");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("entry-row")).toHaveCount(2);
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/lists-search.png`, fullPage: true });

  await page.getByRole("button", { name: "Remove emu-farm-1" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove this entry?" });
  await expect(confirm).toContainText("emu-farm-1");
  await page.screenshot({ path: `${SHOTS}/lists-remove-confirm.png`, fullPage: true });
  await confirm.getByRole("button", { name: "Remove entry" }).click();
  await expect(page.getByTestId("entry-row")).toHaveCount(1);
  await expect(page.getByTestId("entry-count")).toHaveText("2");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("e2e_devices.csv");
  expect(readFileSync((await download.path())!, "utf8")).toBe(
    "value,note,expiresAt\nemu-farm-2,emulator farm,\nphone-77,reported stolen,\n",
  );

  // an entry that is not a valid value for the list's kind is refused with the reason
  await page.getByRole("link", { name: "← All lists" }).click();
  await page.getByTestId("list-row").filter({ hasText: "risky_ip_ranges" }).getByRole("link").click();
  await page.getByLabel("Value").fill("10.0.0.1/8");
  await page.getByRole("button", { name: "Add entry" }).click();
  await expect(page.getByTestId("error-note")).toContainText("host bits set; did you mean 10.0.0.0/8?");
  await page.getByLabel("Value").fill("10.0.0.0/8");
  await page.getByLabel("Note").fill("internal range");
  await page.getByRole("button", { name: "Add entry" }).click();
  await expect(page.getByTestId("entry-row").filter({ hasText: "10.0.0.0/8" })).toContainText(
    "internal range",
  );
  await page.screenshot({ path: `${SHOTS}/lists-ip-list.png`, fullPage: true });
});

test("a KES transaction shows its base amount in USD and the rate used; Settings shows the base currency", async ({
  page,
  request,
}) => {
  const apiKey = createApiKeyWithCli(await demoClientId());
  const id = `e2e-kes-${Date.now()}`;
  const res = await request.post("/v1/transaction", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      id,
      userId: "e2e-kes-user",
      status: "APPROVED",
      currencyCode: "KES",
      amount: 95_000,
      timestamp: Date.now() - 60_000,
    },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { triggered: Array<{ id: string }> };
  expect(body.triggered.map((t) => t.id)).not.toContain("TX-VERY-LARGE-AMOUNT");
  expect(body.triggered.map((t) => t.id)).not.toContain("TX-LARGE-AMOUNT");

  await signIn(page, DEMO.admin);
  await page.goto(`/dashboard/transactions/${id}`);
  // 95,000 KES at the fixture's 129.2 KES per USD
  await expect(page.getByTestId("base-amount")).toContainText(
    "Base amount 735.29 USD at 1 KES = 0.00773994 USD",
  );
  await expect(page.getByTestId("base-amount")).toContainText("(rates of KES 2 Nov 2026)");
  // the rule's explanation shows the base amount exactly as its condition compared it, and says so
  await page.getByText(/Rules that did not fire/).click();
  const large = page.locator('[data-testid="rule-explanation"][data-rule-id="TX-LARGE-AMOUNT"]');
  await expect(large).toContainText("transaction.baseAmount735.29411765");
  await expect(large.getByTestId("exact-values-note")).toHaveText(
    "Values exactly as the condition compared them, not rounded.",
  );
  await page.screenshot({ path: `${SHOTS}/transaction-base-amount.png`, fullPage: true });

  // the range added on the dashboard in the test above is used by the next screening
  const ipId = `e2e-ip-${Date.now()}`;
  const ipRes = await request.post("/v1/transaction", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      id: ipId,
      userId: "e2e-kes-user",
      status: "APPROVED",
      currencyCode: "USD",
      amount: 20,
      timestamp: Date.now() - 30_000,
      userDevice: { id: "e2e-ip-device", ipAddress: "10.9.9.9" },
    },
  });
  expect(((await ipRes.json()) as { triggered: Array<{ id: string }> }).triggered.map((t) => t.id)).toContain(
    "LIST-RISKY-IP",
  );
  await page.goto(`/dashboard/transactions/${ipId}`);
  await expect(page.getByTestId("list-lookups")).toContainText(
    "10.9.9.9 in risky_ip_ranges: matched entry 10.0.0.0/8",
  );
  await page.screenshot({ path: `${SHOTS}/transaction-list-hit.png`, fullPage: true });

  await page.goto("/dashboard/settings");
  await expect(page.getByLabel("Base currency")).toHaveValue("USD");
  await expect(page.getByTestId("fx-summary")).toContainText(
    "9 currencies, 27 rates, the latest dated 2 Nov 2026",
  );
  await page.getByTestId("fx-summary").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/settings-base-currency.png`, fullPage: true });
});
