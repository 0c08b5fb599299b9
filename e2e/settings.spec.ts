import { expect, test } from "@playwright/test";
import { DEMO_SCHEMA_NAME, demoFiuSchema } from "../lib/reports/demo-reports";
import { DEMO } from "../prisma/seed";
import { signIn } from "./support";

// Settings that change what screens: features and actions by their names, and a save that says what it
// changes before it is confirmed (Escape keeps everything as it was).

const SHOTS = "test-results/screens";

test("turning a feature off and changing the base currency ask first and say what changes", async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/settings");
  await expect(page.getByLabel("Event rules")).toBeChecked();
  await expect(page.getByLabel("Step-up auth")).toBeChecked();
  await expect(page.getByText("eventRules")).toHaveCount(0);
  await expect(page.getByText("STEP_UP_AUTH")).toHaveCount(0);

  // Escape: nothing saved, focus back on the save button
  await page.getByLabel("Event rules").uncheck();
  await page.getByRole("button", { name: "Save settings" }).click();
  const confirm = page.getByRole("dialog", { name: "Change what is screened?" });
  await expect(confirm).toContainText("Event rules off: Events are stored but no longer screened by rules.");
  await page.screenshot({ path: `${SHOTS}/settings-confirm-features.png`, fullPage: true });
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("button", { name: "Save settings" })).toBeFocused();
  await page.reload();
  await expect(page.getByLabel("Event rules")).toBeChecked();

  // confirmed: saved, and switched back on the same way
  await page.getByLabel("Event rules").uncheck();
  await page.getByRole("button", { name: "Save settings" }).click();
  await confirm.getByRole("button", { name: "Save and apply" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Event rules")).not.toBeChecked();
  await page.getByLabel("Event rules").check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(confirm).toContainText("Event rules on:");
  await confirm.getByRole("button", { name: "Save and apply" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();

  // the base currency: rule thresholds are not converted, and the dialog says so
  await page.getByLabel("Base currency").selectOption("EUR");
  await page.getByRole("button", { name: "Save base currency" }).click();
  const currency = page.getByRole("dialog", { name: "Change the base currency from USD to EUR?" });
  await expect(currency).toContainText("Rule thresholds are not converted");
  await page.screenshot({ path: `${SHOTS}/settings-confirm-base-currency.png`, fullPage: true });
  await currency.getByRole("button", { name: "Cancel" }).click();
  await expect(currency).toBeHidden();
  await page.reload();
  await expect(page.getByLabel("Base currency")).toHaveValue("USD");
});

test("the retention period: an admin sets it, a value under 12 months is refused with the reason", async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/settings");
  const field = page.getByLabel("Retention period (months)");
  const save = page.getByRole("button", { name: "Save retention period" });
  await expect(field).toHaveValue("60");
  await expect(save).toBeDisabled();

  await field.fill("6");
  await save.click();
  await expect(page.getByTestId("error-note")).toContainText("At least 12 months");
  await page.reload();
  await expect(field).toHaveValue("60");

  await field.fill("24");
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "kept for 24 months" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/settings-retention.png`, fullPage: true });
  await page.reload();
  await expect(field).toHaveValue("24");

  // back to the default, for the other specs
  await field.fill("60");
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "kept for 60 months" })).toBeVisible();
});

test("a reviewer has no retention setting to change", async ({ page }) => {
  await signIn(page, DEMO.reviewer);
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("button", { name: "Save retention period" })).toHaveCount(0);
});

test("a schema switch stays confirmed once the page shows the new schema", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/settings");
  const schema = page.getByTestId("goaml-schema");
  await expect(schema.getByTestId("goaml-schema-name")).toHaveText(DEMO_SCHEMA_NAME);
  // the form is remade for the new schema (its key): the confirmation must survive it
  await schema.getByRole("button", { name: "Use the generic goAML 5.0.1 schema" }).click();
  await expect(schema.getByTestId("goaml-schema-name")).not.toHaveText(DEMO_SCHEMA_NAME, { timeout: 30_000 });
  await expect(schema.getByRole("status")).toHaveText("Schema saved.");
  await page.screenshot({ path: `${SHOTS}/settings-schema-saved.png`, fullPage: false });
  // back to the demo FIU's schema, which the report specs expect
  await schema.getByTestId("goaml-schema-file").setInputFiles({
    name: DEMO_SCHEMA_NAME,
    mimeType: "application/xml",
    buffer: Buffer.from(demoFiuSchema()),
  });
  await expect(schema.getByTestId("goaml-schema-name")).toHaveText(DEMO_SCHEMA_NAME, { timeout: 120_000 });
  await expect(schema.getByRole("status")).toHaveText("Schema saved.");
});
