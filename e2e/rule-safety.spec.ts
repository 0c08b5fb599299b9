import { expect, test } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { nestedComprehensions } from "../tests/support/hostile-rules";
import { expectNoAxeViolations, signIn } from "./support";

// A rule cannot stop the shared server: the editor refuses an expression over the cost bound (naming
// the estimate and the limit) and a regular expression RE2 refuses; a reviewer is shown no Publish
// button and the publish route answers 403.

const SHOTS = "test-results/screens";
const RULE_ID = "E2E-REVIEWER-DRAFT";

test("the editor refuses a rule over the cost bound and an invalid RE2 pattern", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/rules/new");
  const condition = page.getByLabel("Condition (CEL)");
  await condition.fill(nestedComprehensions(3, 120));
  const error = page.getByTestId("error-rule-condition");
  await expect(error).toContainText("too expensive: estimated cost");
  await expect(error).toContainText("exceeds the limit of 100,000 evaluation steps");
  await expect(page.getByTestId("validation-state")).not.toHaveText("Valid");
  await page.screenshot({ path: `${SHOTS}/rule-cost-refused.png`, fullPage: true });
  await expectNoAxeViolations(page);

  await condition.fill("transaction.actionType.matches('(a)\\\\1')");
  await expect(error).toHaveText(
    "1:32: invalid regular expression (RE2 syntax): invalid escape sequence: `\\1`",
  );
  await page.screenshot({ path: `${SHOTS}/rule-regex-refused.png`, fullPage: true });

  // a pattern that backtracks in JavaScript is fine: RE2 matches it in linear time
  await condition.fill("transaction.actionType.matches('^(a+)+$')");
  await expect(error).toHaveCount(0);
});

test("a reviewer drafts a rule but cannot publish it", async ({ page, baseURL }) => {
  await signIn(page, DEMO.reviewer);
  const headers = { origin: baseURL!, "content-type": "application/json" };
  const created = await page.request.post("/dashboard-api/rules", {
    headers,
    data: {
      definition: {
        id: RULE_ID,
        name: "Reviewer's trial rule",
        subject: "transaction",
        riskLevel: "medium",
        recommendedAction: "REVIEW",
        reason: "A reviewer's draft",
        condition: "transaction.amount > 123456.0",
      },
    },
  });
  expect(created.status()).toBe(200);

  await page.goto(`/dashboard/rules/${RULE_ID}`);
  await expect(page.getByTestId("editing-version")).toContainText("Draft v1");
  await expect(page.getByRole("button", { name: /Publish draft/ })).toHaveCount(0);
  await expect(page.getByTestId("publish-note")).toContainText("Publishing a draft");
  await page.screenshot({ path: `${SHOTS}/rule-reviewer-no-publish.png`, fullPage: true });
  await expectNoAxeViolations(page);

  for (const status of ["dry-run", "muted"]) {
    const res = await page.request.post(`/dashboard-api/rules/${RULE_ID}/publish`, {
      headers,
      data: { version: 1, status },
    });
    expect(res.status()).toBe(403);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("FORBIDDEN");
  }
  await page.reload();
  await expect(page.getByTestId("live-version")).toContainText("Never published");
});
