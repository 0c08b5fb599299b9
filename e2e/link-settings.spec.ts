import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { expectNoAxeViolations, signIn } from "./support";

// The user-links fan-out cap in Settings (validated, saved), and the demo ring's rule explanation
// showing the links.* values its decision recorded.

const SHOTS = "test-results/screens";

test("an admin changes the links fan-out cap; a ring transaction shows its links values", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/settings");
  const cap = page.getByLabel("Fan-out cap (users per shared value)");
  await expect(cap).toHaveValue("50");
  await cap.fill("1");
  await page.getByRole("button", { name: "Save fan-out cap" }).click();
  await expect(page.getByText(/At least 2/)).toBeVisible();
  await cap.fill("25");
  await page.getByRole("button", { name: "Save fan-out cap" }).click();
  await expect(
    page.getByText("Saved: values shared by more than 25 users no longer link them."),
  ).toBeVisible();
  await page.getByRole("heading", { name: "User links" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/settings-link-fan-out.png` });
  await expectNoAxeViolations(page);
  await page.reload();
  await expect(cap).toHaveValue("25");

  await page.goto("/dashboard/transactions/demo-ring-3-tx-2");
  const rule = page.locator('[data-testid="rule-explanation"][data-rule-id="TX-LINKED-RING"]');
  await expect(rule).toContainText('links.count("deviceFingerprint")');
  await expect(rule.getByTestId("link-value").first()).toContainText("4");
  await rule.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/ring-rule-explanation.png` });
  await expectNoAxeViolations(page);
});
