import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { expectNoAxeViolations, expectNoHorizontalScroll, signIn } from "./support";

// The rule editor tells an admin what each aggregate costs at every screening: read from time buckets (the
// same whatever the window and the history), from distinct values per day (countDistinct), or from every raw
// row of its window, and why.

const SHOTS = "test-results/screens";

test("an admin sees which aggregates read the raw window, and why", async ({ page }) => {
  await signIn(page, DEMO.admin);

  // a live demo rule summing the user's base amounts over 24 h: buckets
  await page.goto("/dashboard/rules");
  await page.getByRole("link", { name: "TX-DAILY-VOLUME", exact: true }).click();
  await expect(page.getByRole("heading", { name: "TX-DAILY-VOLUME", exact: true })).toBeVisible();
  await expect(page.getByTestId("aggregate-cost")).toHaveText(
    "Reads time buckets: its cost does not grow with the window or the history.",
  );

  // distinct users per device: the distinct values per day
  await page.goto("/dashboard/rules");
  await page.getByRole("link", { name: "TX-DEVICE-SHARED", exact: true }).click();
  await expect(page.getByTestId("aggregate-cost")).toHaveText(
    "Reads distinct values per day: the window's whole days from day totals, its two ragged days from their rows. Its cost grows with the distinct values per day, not with the transactions.",
  );

  // a new rule: the note follows what the admin types
  await page.goto("/dashboard/rules/new");
  await page.getByRole("button", { name: "Add aggregate" }).click();
  const cost = page.getByTestId("aggregate-cost");
  await page.getByLabel("Group by").fill("merchantId");
  await page.getByLabel("Window").fill("30d");
  await expect(cost).toHaveText("Reads time buckets: its cost does not grow with the window or the history.");
  await page.getByLabel("Where").fill("transaction.direction == 'payout'");
  await expect(cost).toContainText("Reads the raw window: a where filter reads the raw window.");
  await page.getByLabel("Where").fill("");
  await expect(cost).toContainText("Reads time buckets");
  // a long right-to-left group path wraps inside the card, and names what is kept instead
  const longPath = `beneficiary.${"اسم_المستفيد_".repeat(12)}${"x".repeat(80)}`;
  await page.getByLabel("Group by").fill(longPath);
  await expect(cost).toContainText(
    `grouping by ${longPath} reads the raw window (kept in buckets: userId, merchantId`,
  );
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await cost.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/aggregate-cost.png`, fullPage: true });
});
