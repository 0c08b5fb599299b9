import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { HOSTILE_USERS, LONG_NAME } from "./seed-hostile";
import { createApiKeyWithCli, demoClientId, expectNoHorizontalScroll, signIn } from "./support";

// What the page shows must be what the client sent, and nothing a client sends may break the page:
// an 800-character name without a space is cut with an ellipsis in every list (full value on hover)
// and wraps in headings; a right-to-left override is shown as a marker and cannot reorder the text;
// the transaction page keeps the request as sent and lists later updates below it.

const SHOTS = "test-results/screens";
const RLO_MARKED = "⟨U+202E⟩evil";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 800 } });

test("long and right-to-left names in every list and on the detail pages", async ({ page }) => {
  await signIn(page, DEMO.reviewer);
  for (const [name, path] of [
    ["cases", "/dashboard/cases"],
    ["users", "/dashboard/users"],
    ["alerts", "/dashboard/alerts"],
    ["transactions", "/dashboard/transactions"],
  ] as const) {
    await page.goto(path);
    const long = page.locator("[data-client-text]", { hasText: LONG_NAME.slice(0, 30) }).first();
    await expect(long, `${name}: the long name is listed`).toBeVisible();
    // cut, with the whole value on hover
    await expect(long).toHaveAttribute("title", new RegExp(`^${LONG_NAME}`));
    expect(await long.evaluate((el) => el.scrollWidth > el.clientWidth), `${name}: cut`).toBe(true);
    await expect(page.getByText(RLO_MARKED).first(), `${name}: override shown`).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/client-values-${name}.png`, fullPage: true });
    await expectNoHorizontalScroll(page);
  }

  for (const id of Object.values(HOSTILE_USERS)) {
    await page.goto(`/dashboard/users/${id}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: `${SHOTS}/client-values-user-${id}.png`, fullPage: true });
  }
  // the heading wraps and holds the whole name
  await page.goto(`/dashboard/users/${HOSTILE_USERS.long}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(LONG_NAME);
  await page.goto(`/dashboard/users/${HOSTILE_USERS.rlo}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(RLO_MARKED);
  // isolated: the override marker is inside its own bidi isolate
  await expect(page.getByRole("heading", { level: 1 }).locator("bdi").first()).toHaveCSS(
    "unicode-bidi",
    "isolate",
  );

  await page.goto("/dashboard/cases");
  await page.locator("[data-client-text]", { hasText: RLO_MARKED }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Case: ${RLO_MARKED}`);
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/client-values-case-rlo.png`, fullPage: true });
});

test("the request stays as sent; updates are listed below it; no second chargeback mark", async ({
  page,
  request,
}) => {
  const headers = { authorization: `Bearer ${createApiKeyWithCli(await demoClientId())}` };
  const id = `${HOSTILE_USERS.rlo}-tx`;
  const update = await request.post("/v1/transaction/update", {
    headers,
    data: { transactionId: id, status: "CHARGEBACK", reason: "Issuer notice 4411" },
  });
  expect(update.status()).toBe(200);

  await signIn(page, DEMO.reviewer);
  await page.goto(`/dashboard/transactions/${id}`);
  const sent = JSON.parse((await page.getByTestId("request-json").textContent()) ?? "") as { status: string };
  expect(sent.status).toBe("APPROVED");
  await expect(page.getByTestId("request-json")).toContainText(`"firstName": "${RLO_MARKED}"`);
  const changes = page.getByTestId("request-changes");
  await expect(changes).toContainText("status → CHARGEBACK");
  await expect(changes).toContainText("Issuer notice 4411");
  await expect(changes).toContainText("API");
  await expect(page.getByRole("button", { name: "Mark as chargeback" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Chargeback recorded" })).toBeDisabled();
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/client-values-request-as-sent.png`, fullPage: true });
});
