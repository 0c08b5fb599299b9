import { expect, test, type Page } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import {
  createApiKeyWithCli,
  demoClientId,
  expectNoAxeViolations,
  expectNoHorizontalScroll,
  receivedEvent,
  signIn,
  startReceiver,
  type TReceiver,
} from "./support";

// A reviewer works a case from the inbox to its closure, and escalates another; the reporting officer
// then finds the linked report draft. Case events reach a subscriber as verified webhooks.

const SECRET = "e2e-cases-subscription-secret";
const RUN = Date.now().toString(36);
const CARLA = `e2e-case-carla-${RUN}`;
const ERIC = `e2e-case-eric-${RUN}`;
const SHOTS = "test-results/screens";

let apiKey = "";
let receiver: TReceiver;

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 900 } });

test.beforeAll(async ({ request }) => {
  receiver = await startReceiver(SECRET);
  apiKey = createApiKeyWithCli(await demoClientId());
  const headers = { authorization: `Bearer ${apiKey}` };
  const sub = await request.post("/v1/webhooks", {
    headers,
    data: { url: receiver.url, events: ["case.created", "case.closed"], secret: SECRET },
  });
  expect(sub.status()).toBe(200);
  for (const [id, firstName, lastName] of [
    [CARLA, "Carla", "Casework"],
    [ERIC, "Eric", "Escalation"],
  ] as const) {
    const user = await request.post("/v1/user", {
      headers,
      data: {
        id,
        firstName,
        lastName,
        email: { email: `${id}@mail.test` },
        timestamp: Date.now() - 86_400_000,
      },
    });
    expect(user.status()).toBe(200);
  }
  // amounts of 10,000 USD or more (in the base currency) fire the demo rule TX-LARGE-AMOUNT
  const txs: [string, string, number][] = [
    [`${CARLA}-tx-1`, CARLA, 12_500],
    [`${CARLA}-tx-2`, CARLA, 18_000],
    [`${ERIC}-tx-1`, ERIC, 60_000],
  ];
  for (const [id, userId, amount] of txs) {
    const tx = await request.post("/v1/transaction", {
      headers,
      data: { id, userId, status: "PENDING", currencyCode: "EUR", amount, timestamp: Date.now() - 5_000 },
    });
    expect(tx.status()).toBe(200);
  }
});

test.afterAll(async () => {
  await receiver?.close();
});

async function openCaseOf(page: Page, userId: string) {
  await page.getByRole("link", { name: "Cases", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Cases", exact: true })).toBeVisible();
  await page.getByRole("combobox", { name: "User" }).fill(userId);
  await page.getByRole("combobox", { name: "User" }).press("Enter");
  const rows = page.getByTestId("case-row");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link").click();
  await expect(page.getByRole("heading", { name: /^Case: / })).toBeVisible();
}

test("a reviewer works a case from the inbox to its closure", async ({ page }) => {
  const created = await receivedEvent<{ caseId: string; subject: { id: string } }>(
    receiver,
    "case.created",
    (p) => p.subject.id === CARLA,
  );
  await signIn(page, DEMO.reviewer);
  await page.getByRole("link", { name: "Cases", exact: true }).click();
  await expect(page.getByTestId("case-row").first()).toBeVisible();
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/cases-inbox.png`, fullPage: true });

  await openCaseOf(page, CARLA);
  expect(page.url()).toContain(`/dashboard/cases/${created.payload.caseId}`);
  await expect(page.getByRole("heading", { name: "Case: Carla Casework" })).toBeVisible();
  await expect(page.getByTestId("case-transaction")).toHaveCount(2);
  // the values that fired the rule, as on the transaction page, and money formatted
  const first = page.locator(`[data-testid="case-transaction"][data-transaction-id="${CARLA}-tx-2"]`);
  await expect(first).toContainText("18,000.00 EUR");
  const large = first
    .getByTestId("case-alert")
    .filter({ has: page.locator('[data-rule-id="TX-LARGE-AMOUNT"]') });
  // demo amounts compare in the base currency (USD)
  await expect(large.getByTestId("rule-explanation")).toContainText(
    "transaction.?baseAmount.orValue(transaction.amount) >= 10000",
  );
  await expect(large.getByTestId("rule-explanation")).toContainText("18,000");
  await expectNoAxeViolations(page);
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/case-page.png`, fullPage: true });

  await page.getByLabel("Assignee").selectOption({ label: "Rui Reviewer" });
  await expect(page.getByTestId("case-history")).toContainText("Assigned to Rui Reviewer");

  await large.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Clear selected" }).click();
  const verdict = page.getByRole("dialog", { name: "Clear 1 selected alert" });
  // the note is required: saving without one says so and puts the cursor where it is missing
  await verdict.getByRole("button", { name: "Save verdict" }).click();
  await expect(verdict.getByTestId("dialog-problem")).toHaveText(
    "Write a note: it is kept in the case history with your name.",
  );
  await expect(verdict.getByLabel("Note (required)")).toBeFocused();
  await verdict.getByLabel("Note (required)").fill("Salary bonus, payslip on file");
  await expect(verdict.getByTestId("dialog-problem")).toHaveCount(0);
  await verdict.getByRole("button", { name: "Save verdict" }).click();
  await expect(verdict).toBeHidden();
  await expect(large.getByText("Cleared", { exact: true })).toBeVisible();
  // the reviewer is told what happened, and the keyboard is not dropped on the page body
  await expect(page.getByTestId("done-note")).toHaveText("1 alert cleared.");
  await expect(page.getByTestId("done-note")).toBeFocused();

  await page.getByRole("textbox", { name: "Comment" }).fill("Called the customer, both payments explained");
  await page.getByRole("button", { name: "Add comment" }).click();
  await expect(page.getByTestId("case-history")).toContainText(
    "Called the customer, both payments explained",
  );

  // the block dialog keeps the keyboard inside, Esc leaves it untouched and focus is back on its button
  await page.getByRole("button", { name: "Block user…" }).click();
  const block = page.getByRole("dialog", { name: "Block the user" });
  await expect(block.getByLabel("Note (required)")).toBeFocused();
  for (const key of ["Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    expect(await block.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(block).toBeHidden();
  await expect(page.getByRole("button", { name: "Block user…" })).toBeFocused();
  await expect(page.getByTestId("subject-status")).toHaveText("Active");

  await page.getByRole("button", { name: "Close case…" }).click();
  const close = page.getByRole("dialog", { name: "Close the case" });
  await close.getByRole("button", { name: "Close case" }).click();
  await expect(close.getByTestId("dialog-problem")).toHaveText("Choose an outcome for the case.");
  await close.getByText("False positive", { exact: true }).click();
  await close.getByLabel("Note (required)").fill("Known customer, regular salary payments");
  await page.screenshot({ path: `${SHOTS}/case-close-dialog.png` });
  await close.getByRole("button", { name: "Close case" }).click();
  await expect(close).toBeHidden();
  await expect(page.getByTestId("case-closed-note")).toContainText("It is read-only");
  await expect(page.getByTestId("case-actions")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Clear selected" })).toHaveCount(0);
  await expect(page.getByTestId("case-history")).toContainText("Closed: False positive");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/case-closed.png`, fullPage: true });

  const closed = await receivedEvent<Record<string, unknown>>(
    receiver,
    "case.closed",
    (p) => p.caseId === created.payload.caseId,
  );
  expect(closed.received.verified).toBe(true);
  expect(closed.payload).toMatchObject({
    outcome: "false_positive",
    note: "Known customer, regular salary payments",
    closedBy: DEMO.reviewer.email,
    subject: { type: "user", id: CARLA },
  });
});

test("a reviewer escalates a case; the reporting officer sees it with its report draft", async ({ page }) => {
  await signIn(page, DEMO.reviewer);
  await openCaseOf(page, ERIC);
  // one transaction reads as one, and its time as everywhere else on the page
  await expect(page.getByTestId("case-activity-summary")).toHaveText("1 transaction, 1 alerted");
  await expect(page.getByTestId("case-activity").locator("..").locator("time").first()).toHaveText(
    /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/,
  );
  await page.getByRole("button", { name: "Escalate…" }).click();
  const dialog = page.getByRole("dialog", { name: "Escalate to a reporting officer" });
  await dialog
    .getByLabel("Note (required)")
    .fill("60,000 EUR from a one-day-old account, no source of funds");
  // a colleague escalates the same case first: the refusal is shown in the dialog, which keeps the note
  const caseId = new URL(page.url()).pathname.split("/").pop()!;
  const first = await page.request.post(`/dashboard-api/cases/${caseId}/escalate`, {
    headers: { origin: new URL(page.url()).origin },
    data: { note: "60,000 EUR from a one-day-old account, no source of funds" },
  });
  expect(first.status()).toBe(200);
  await dialog.getByRole("button", { name: "Escalate" }).click();
  await expect(dialog.getByTestId("error-note")).toHaveText(
    "The case is already escalated to a reporting officer",
  );
  await expect(dialog.getByTestId("error-note")).toBeFocused();
  await expect(dialog.getByLabel("Note (required)")).toHaveValue(
    "60,000 EUR from a one-day-old account, no source of funds",
  );
  await page.screenshot({ path: `${SHOTS}/case-escalate-refused.png` });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // no reload needed: behind the dialog the page already shows the case as it now is
  await expect(page.getByText("Escalated", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Escalate…" })).toHaveCount(0);
  await expect(page.getByTestId("case-report")).toContainText("With the reporting officers (Draft)");
  const caseUrl = page.url();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, DEMO.officer);
  await page.getByRole("link", { name: "Cases", exact: true }).click();
  const row = page.getByTestId("case-row").filter({ hasText: "Eric Escalation" });
  await expect(row).toBeVisible();
  await expect(page.getByText("Next case")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/cases-inbox-officer.png`, fullPage: true });
  await row.getByRole("link").click();
  await expect(page).toHaveURL(caseUrl);
  await expect(page.getByTestId("case-actions")).toHaveCount(0);
  await page.getByTestId("case-report").getByRole("link").click();
  await expect(page).toHaveURL(/\/dashboard\/reports\/rpt_/);
  await expect(page.getByText(ERIC).first()).toBeVisible();
  await expect(page.getByText(`${ERIC}-tx-1`).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/case-report-draft.png`, fullPage: true });
  // and the report leads back to the case it was escalated from
  await page.getByTestId("escalated-from-case").getByRole("link").click();
  await expect(page).toHaveURL(caseUrl);
});
