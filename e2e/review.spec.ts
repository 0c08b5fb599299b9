import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import {
  createApiKeyWithCli,
  demoClientId,
  receivedEvent,
  signIn,
  startReceiver,
  type TReceiver,
} from "./support";

// A reviewer's day end to end: data made through /v1, an alert cleared in the queue, the transaction
// marked as fraud, the user blocked; each action reaches a subscriber as a verified webhook.

const SECRET = "e2e-review-subscription-secret";
const RUN = Date.now().toString(36);
const USER_ID = `e2e-rev-user-${RUN}`;
const TX_ID = `e2e-rev-tx-${RUN}`;
const SHOTS = "test-results/screens";

let apiKey = "";
let receiver: TReceiver;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  receiver = await startReceiver(SECRET);
  apiKey = createApiKeyWithCli(await demoClientId());
  const headers = { authorization: `Bearer ${apiKey}` };
  const sub = await request.post("/v1/webhooks", {
    headers,
    data: {
      url: receiver.url,
      events: ["alert.reviewed", "transaction.confirmedFraud", "user.status.block"],
      secret: SECRET,
    },
  });
  expect(sub.status()).toBe(200);
  const user = await request.post("/v1/user", {
    headers,
    data: {
      id: USER_ID,
      firstName: "Rita",
      lastName: "Review",
      email: { email: `${USER_ID}@mail.test` },
      timestamp: Date.now() - 30 * 86_400_000,
    },
  });
  expect(user.status()).toBe(200);
  // 12,345.67 fires the demo rule TX-LARGE-AMOUNT (amount >= 10,000)
  const tx = await request.post("/v1/transaction", {
    headers,
    data: {
      id: TX_ID,
      userId: USER_ID,
      status: "PENDING",
      currencyCode: "EUR",
      amount: 12345.67,
      timestamp: Date.now() - 1000,
    },
  });
  expect(tx.status()).toBe(200);
  const body = (await tx.json()) as { triggered: { id: string }[] };
  expect(body.triggered.map((t) => t.id)).toContain("TX-LARGE-AMOUNT");
});

test.afterAll(async () => {
  await receiver?.close();
});

test("review and clear the alert in the queue: the receiver gets a verified alert.reviewed", async ({
  page,
}) => {
  await signIn(page, DEMO.reviewer);
  await page.screenshot({ path: `${SHOTS}/review-home.png`, fullPage: true });
  await page.getByRole("link", { name: "Alerts" }).click();
  await expect(page.getByRole("heading", { name: "Alerts", exact: true })).toBeVisible();
  const row = page
    .locator(`[data-testid="alert-row"][data-transaction-id="${TX_ID}"]`)
    .filter({ hasText: "TX-LARGE-AMOUNT" });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Assign to me" }).click();
  await expect(row.getByRole("button", { name: "Release" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/review-alerts-queue.png`, fullPage: true });

  await row.getByRole("button", { name: "Review" }).click();
  const dialog = page.getByRole("dialog", { name: "Review alert" });
  await dialog.getByText("Cleared", { exact: true }).click();
  await dialog.getByLabel("Note").fill("Known customer: salary bonus, documents on file");
  await page.screenshot({ path: `${SHOTS}/review-alert-dialog.png` });
  await dialog.getByRole("button", { name: "Save review" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeHidden(); // the open queue no longer lists it
  // the row is gone, so the queue says what was done and keeps the keyboard there
  await expect(page.getByTestId("done-note")).toHaveText(`Alert TX-LARGE-AMOUNT on ${TX_ID} cleared.`);
  await expect(page.getByTestId("done-note")).toBeFocused();

  const got = await receivedEvent<Record<string, unknown>>(
    receiver,
    "alert.reviewed",
    (p) => p.transactionId === TX_ID,
  );
  expect(got.received.verified).toBe(true);
  expect(got.payload).toEqual({
    transactionId: TX_ID,
    ruleId: "TX-LARGE-AMOUNT",
    status: "cleared",
    reviewedBy: DEMO.reviewer.email,
    reviewedAt: expect.any(Number),
    feedback: "Known customer: salary bonus, documents on file",
  });

  await page.getByLabel("Status").selectOption("cleared");
  await expect(
    page.locator(`[data-testid="alert-row"][data-transaction-id="${TX_ID}"]`).first(),
  ).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/review-alerts-cleared.png`, fullPage: true });
});

test("mark the transaction as fraud: the receiver gets a verified transaction.confirmedFraud", async ({
  page,
}) => {
  await signIn(page, DEMO.reviewer);
  await page.goto(`/dashboard/transactions?userId=${USER_ID}`);
  await page.getByRole("link", { name: TX_ID }).click();
  await expect(page.getByRole("heading", { name: `Transaction ${TX_ID}` })).toBeVisible();
  const fired = page.getByTestId("fired-rules").locator('[data-rule-id="TX-LARGE-AMOUNT"]');
  // demo amounts compare in the base currency (USD): 12,345.67 EUR at the fixture's 0.918 EUR per USD
  await expect(fired).toContainText("transaction.?baseAmount.orValue(transaction.amount) >= 10000");
  await expect(page.getByTestId("base-amount")).toContainText("Base amount 13,448.44 USD");
  await expect(fired).toContainText("12,345.67");
  await expect(page.getByTestId("transaction-alerts")).toContainText("Cleared");

  await page.getByRole("button", { name: "Mark as fraud" }).click();
  await page.getByLabel("Why is this fraud?").fill("Cardholder denies the payment");
  await page.getByRole("button", { name: "Confirm fraud" }).click();
  await expect(page.getByTestId("transaction-flags")).toHaveText("Confirmed fraud");
  // its only alert was already cleared: the reviewer is told the mark, and no alert changed with it
  await expect(page.getByTestId("done-note")).toHaveText("Marked as confirmed fraud.");
  await expect(page.getByTestId("done-note")).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/review-transaction-fraud.png`, fullPage: true });

  const got = await receivedEvent<Record<string, unknown>>(
    receiver,
    "transaction.confirmedFraud",
    (p) => p.transactionId === TX_ID,
  );
  expect(got.received.verified).toBe(true);
  expect(got.payload).toEqual({
    transactionId: TX_ID,
    feedback: "Cardholder denies the payment",
    confirmedBy: DEMO.reviewer.email,
    confirmedAt: expect.any(Number),
  });
});

test("block the user from the user page: verified user.status.block and the page shows blocked", async ({
  page,
}) => {
  await signIn(page, DEMO.reviewer);
  await page.goto("/dashboard/users");
  await page.getByLabel("Search").fill(USER_ID);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: USER_ID }).click();
  await expect(page.getByTestId("user-status")).toHaveText("Active");
  await expect(page.getByTestId("transaction-row").filter({ hasText: TX_ID })).toBeVisible();

  // the whole email is readable in the profile card, not cut off with an ellipsis
  const email = page.getByTestId("user-email");
  await expect(email).toHaveText(`${USER_ID}@mail.test`);
  expect(await email.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  await page.getByRole("button", { name: "Block user" }).click();
  const dialog = page.getByRole("dialog", { name: "Block user" });
  // a block changes what screens: the dialog says so before it is made
  await expect(dialog).toContainText("From now on screening sees this user as blocked");
  await dialog.getByRole("button", { name: "Confirm block" }).click();
  await expect(dialog.getByTestId("dialog-problem")).toHaveText(
    "Write why you block this user: it is sent with the block.",
  );
  await dialog.getByLabel(/Why block this user/).fill("Confirmed fraud on a large payment");
  await dialog.getByRole("button", { name: "Confirm block" }).click();
  await expect(page.getByTestId("user-status")).toHaveText("Blocked");
  // its only alert was settled before: the block confirms none, and the note does not pretend otherwise
  await expect(page.getByTestId("done-note")).toHaveText("User blocked.");
  await expect(page.getByTestId("status-history-row").first()).toContainText("Blocked");

  await page.getByLabel("Add a comment").fill("Blocked after the fraud confirmation");
  await page.getByRole("button", { name: "Post comment" }).click();
  await expect(page.getByTestId("user-comments")).toContainText("Blocked after the fraud confirmation");
  await page.screenshot({ path: `${SHOTS}/review-user-blocked.png`, fullPage: true });

  const got = await receivedEvent<Record<string, unknown>>(
    receiver,
    "user.status.block",
    (p) => p.id === USER_ID,
  );
  expect(got.received.verified).toBe(true);
  expect(got.payload).toEqual({
    id: USER_ID,
    status: "blocked",
    reason: `Confirmed fraud on a large payment (reviewer: ${DEMO.reviewer.email})`,
    updatedAt: expect.any(Number),
  });
});

test("a reporting officer sees the queue read-only and the review route refuses them", async ({ page }) => {
  await signIn(page, DEMO.officer);
  await page.goto("/dashboard/alerts?status=all");
  await expect(page.getByRole("heading", { name: "Alerts", exact: true })).toBeVisible();
  await expect(page.getByTestId("alert-row").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Review" })).toHaveCount(0);
  const res = await page.request.post("/dashboard-api/alerts/any-id/review", {
    headers: { origin: new URL(page.url()).origin },
    data: { status: "cleared" },
  });
  expect(res.status()).toBe(403);
  expect(((await res.json()) as { error: { type: string } }).error.type).toBe("FORBIDDEN");
});
