import { expect, test, type APIRequestContext } from "@playwright/test";
import { DEMO } from "../prisma/seed";
import { createApiKeyWithCli, demoClientId, expectNoAxeViolations, signIn } from "./support";

// An admin edits a live rule safely. The edit is saved as a draft and screening does not
// change; the backtest shows what publishing would change; publishing switches the live version in one
// step; switching the rule off is its own confirmed action. Typos are caught in the editor, which
// completes field names.

const RULE = "TX-LARGE-AMOUNT";
const SHOTS = "test-results/screens";

let apiKey = "";
let seq = 0;
// This test's transactions happened 300 days ago, in a minute no other data uses, so the backtest
// period holds exactly them whatever the other specs screened.
const MINUTE = 60_000;
const PAST = Math.floor((Date.now() - 300 * 86_400_000) / MINUTE) * MINUTE;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  apiKey = createApiKeyWithCli(await demoClientId());
});

async function screen(request: APIRequestContext, amount: number): Promise<string[]> {
  const res = await request.post("/v1/transaction", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      id: `e2e-rules-${Date.now()}-${++seq}`,
      userId: `e2e-rules-user-${seq}`,
      status: "PENDING",
      currencyCode: "USD",
      amount,
      timestamp: PAST + seq * 1_000,
    },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { triggered: Array<{ id: string }> }).triggered.map((t) => t.id);
}

test("an admin edits a live rule safely: draft, unchanged screening, backtest diff, publish", async ({
  page,
  request,
}) => {
  // before: the live demo rule fires on 30,000
  const before = [await screen(request, 30_000), await screen(request, 31_000)];
  for (const fired of before) expect(fired).toContain(RULE);

  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/rules");
  await expect(page.getByRole("heading", { name: "Rules" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: RULE, exact: true }).click();
  await expect(page.getByRole("heading", { name: RULE, exact: true })).toBeVisible();
  // one status control: the live version and its status
  await expect(page.getByTestId("rule-status-control")).toHaveCount(1);
  await expect(page.getByTestId("live-version")).toContainText("v1");
  await expect(page.getByTestId("rule-status")).toHaveText("Active");
  await expect(page.getByLabel("Status")).toHaveCount(0);
  await expectNoAxeViolations(page);

  // a typo is caught with its position and a suggestion
  const condition = page.getByLabel("Condition (CEL)");
  await condition.fill("transaction.amout >= 50000");
  await expect(page.getByTestId("error-rule-condition")).toHaveText(
    "1:13: unknown field transaction.amout; did you mean amount?",
  );
  await expect(page.getByTestId("condition-marker")).toContainText("^^^^^");
  await expect(page.getByRole("button", { name: "Save draft" })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/rules-typo.png`, fullPage: true });
  // ... and so is a type mismatch
  await condition.fill('transaction.amount >= "50000"');
  await expect(page.getByTestId("error-rule-condition")).toContainText("type mismatch");

  // the field is completed from the declared fields
  await condition.fill("");
  await condition.pressSequentially("transaction.amo");
  const completions = page.getByTestId("completions");
  await expect(completions.getByRole("option", { name: /transaction\.amount/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/rules-autocomplete.png`, fullPage: true });
  await condition.press("Enter");
  await expect(condition).toHaveValue("transaction.amount");
  await condition.pressSequentially(" >= 50000");
  await expect(page.getByTestId("validation-state")).toHaveText("Valid");
  await expectNoAxeViolations(page);

  // saving makes draft v2; the live version is untouched
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByTestId("saved-note")).toHaveText(
    "Saved as draft v2. It does not screen until published.",
  );
  await expect(page.getByTestId("live-version")).toContainText("v1");
  await expect(page.getByTestId("rule-status")).toHaveText("Active");
  await expect(page.getByTestId("editing-version")).toContainText("Draft v2");
  await expect(page.getByTestId("editing-version")).toContainText("by Ada Admin");
  await page.screenshot({ path: `${SHOTS}/rules-draft-saved.png`, fullPage: true });

  // screening is unchanged while v2 is a draft
  expect(await screen(request, 30_000)).toContain(RULE);

  // the backtest answers "what changes if I publish?", over this test's own transactions
  const localInput = (ms: number) =>
    page.evaluate(
      (at) => new Date(at - new Date(at).getTimezoneOffset() * 60_000).toISOString().slice(0, 16),
      ms,
    );
  await page.getByLabel("Backtest from").fill(await localInput(PAST));
  await page.getByLabel("Backtest to").fill(await localInput(PAST + 2 * MINUTE));
  await expect(page.getByLabel("Backtest version")).toHaveValue("2");
  await page.getByRole("button", { name: "Run backtest" }).click();
  await expect(page.getByTestId("backtest-summary")).toContainText("Done:", { timeout: 60_000 });
  await expect(page.getByTestId("backtest-summary")).toContainText("3 of 3 transactions");
  await expect(page.getByTestId("backtest-summary")).toContainText("by Ada Admin");
  await expect(page.getByTestId("backtest-draft-hits")).toHaveText("0");
  await expect(page.getByTestId("backtest-live-hits")).toHaveText("3");
  await expect(page.getByTestId("backtest-only-live")).toHaveText("3");
  await expect(page.getByTestId("backtest-only-draft")).toHaveText("0");
  await expect(page.getByTestId("samples-only-live")).toContainText("30,000.00 USD");
  await expect(page.getByTestId("samples-only-live")).toContainText("31,000.00 USD");
  await page.screenshot({ path: `${SHOTS}/rules-backtest-diff.png`, fullPage: true });
  await expectNoAxeViolations(page);

  // kept until the next run
  await page.reload();
  await expect(page.getByTestId("backtest-only-live")).toHaveText("3");

  // publish v2: one step, confirmed in a dialog
  await page.getByRole("button", { name: "Publish draft v2…" }).click();
  const dialog = page.getByRole("dialog", { name: "Publish draft v2" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("v2 replaces v1 for every screening from now on");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/rules-publish-dialog.png`, fullPage: true });
  await dialog.getByRole("radio", { name: /Active/ }).check();
  await dialog.getByLabel("Change note").fill("Threshold raised to 50,000 after the backtest");
  await dialog.getByRole("button", { name: "Publish" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("live-version")).toContainText("v2");
  await expect(page.getByTestId("rule-status")).toHaveText("Active");
  await expect(page.getByTestId("version-2")).toContainText("Live · Active");
  await page.screenshot({ path: `${SHOTS}/rules-published.png`, fullPage: true });

  // screening changed: 30,000 no longer fires, 60,000 does
  expect(await screen(request, 30_000)).not.toContain(RULE);
  expect(await screen(request, 60_000)).toContain(RULE);

  // switching off is its own confirmed action; Esc cancels it
  await page.getByRole("button", { name: "Switch off…" }).click();
  const confirm = page.getByRole("dialog", { name: `Switch off ${RULE}?` });
  await expect(confirm).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  expect(await screen(request, 60_000)).toContain(RULE);
  await page.getByRole("button", { name: "Switch off…" }).click();
  await confirm.getByRole("button", { name: "Switch off" }).click();
  await expect(page.getByTestId("rule-status")).toHaveText("Inactive");
  await expect(page.getByTestId("live-version")).toContainText("Switched off: v2 does not screen.");
  await page.screenshot({ path: `${SHOTS}/rules-switched-off.png`, fullPage: true });
  expect(await screen(request, 60_000)).not.toContain(RULE);

  // leave the demo rule as it was for the other specs: v1 live and active
  const restored = await page.request.post(`/dashboard-api/rules/${RULE}/publish`, {
    headers: { origin: new URL(page.url()).origin },
    data: { version: 1, status: "active", note: "Restored for the other specs" },
  });
  expect(restored.status()).toBe(200);
  expect(await screen(request, 30_000)).toContain(RULE);
});

test("the new-rule form starts clean and creates a draft that does not screen", async ({ page, request }) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/rules/new");
  await expect(page.getByRole("heading", { name: "New rule", level: 1 })).toBeVisible();
  // nothing typed, nothing reported
  await expect(page.getByText(/Too small/)).toHaveCount(0);
  await expect(page.getByText("Required")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/rules-new-clean.png`, fullPage: true });

  await page.getByLabel("Rule id").fill("E2E-RULES-DRAFT");
  await page.getByLabel("Name", { exact: true }).fill("Any amount (draft)");
  await page.getByLabel("Reason").fill("Trial");
  await page.getByLabel("Condition (CEL)").fill("transaction.amount > 0");
  await expect(page.getByTestId("validation-state")).toHaveText("Valid");
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByTestId("saved-note")).toHaveText(
    "Saved as draft v1. It does not screen until published.",
  );
  await expect(page.getByTestId("live-version")).toContainText("Never published");
  expect(await screen(request, 5)).not.toContain("E2E-RULES-DRAFT");
});

test("the condition holds exactly what was typed while validation answers come back late", async ({
  page,
}) => {
  // A loaded machine: the browser's frames come 250 ms late, and the engine answers 1.5 s after it is
  // asked, so the answer for earlier text comes back while the author types on.
  await page.addInitScript(() => {
    const request = window.requestAnimationFrame.bind(window);
    const cancel = window.cancelAnimationFrame.bind(window);
    const late = new Map<number, { timer: number; frame?: number }>();
    let next = 0;
    window.requestAnimationFrame = (callback) => {
      const id = ++next;
      const timer = window.setTimeout(() => {
        late.get(id)!.frame = request((at) => {
          late.delete(id);
          callback(at);
        });
      }, 250);
      late.set(id, { timer });
      return id;
    };
    window.cancelAnimationFrame = (id) => {
      const entry = late.get(id);
      if (!entry) return;
      window.clearTimeout(entry.timer);
      if (entry.frame !== undefined) cancel(entry.frame);
      late.delete(id);
    };
  });
  type TAnswer = { valid: boolean; errors: Array<{ field: string; message: string }> };
  const answers = new Map<string, TAnswer>();
  const conditionOf = (body: unknown) => (body as { definition: { condition: string } }).definition.condition;
  await page.route("**/dashboard-api/rules/validate", async (route) => {
    const response = await route.fetch();
    answers.set(conditionOf(route.request().postDataJSON()), (await response.json()) as TAnswer);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // the editor aborts a request for text the author has since changed
    await route.fulfill({ response }).catch(() => undefined);
  });
  const asked = (text: string) =>
    page.waitForRequest(
      (r) => r.url().endsWith("/dashboard-api/rules/validate") && conditionOf(r.postDataJSON()) === text,
    );

  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/rules/TX-ROUND-AMOUNT");
  const condition = page.getByLabel("Condition (CEL)");
  const state = page.getByTestId("validation-state");
  await expect(state).toHaveText("Valid");
  // every state the editor shows, with the text beside it then
  await page.evaluate(() => {
    const seen: Array<{ state: string; errors: string[]; text: string }> = [];
    (window as unknown as { seen: typeof seen }).seen = seen;
    const text = document.getElementById("rule-condition") as HTMLTextAreaElement;
    const record = () =>
      seen.push({
        state: document.querySelector('[data-testid="validation-state"]')?.textContent ?? "",
        errors: [...document.querySelectorAll('[data-testid="error-rule-condition"]')].map(
          (e) => e.textContent ?? "",
        ),
        text: text.value,
      });
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    // and after each key, once the editor has rendered it (what it shows while the author types)
    text.addEventListener("input", () => setTimeout(record));
  });

  await condition.fill("");
  await condition.pressSequentially("transaction.amo");
  await condition.press("Enter");
  const first = "transaction.amount >= 50000";
  const firstAsked = asked(first);
  await condition.pressSequentially(" >= 50000", { delay: 100 });
  await expect(condition).toHaveValue(first);
  // typing on, at ten keys a second, while the engine works on the text so far
  await firstAsked;
  const typed = `${first} && transaction.amout > 1`;
  await condition.pressSequentially(" && transaction.amout > 1", { delay: 100 });
  await expect(condition).toHaveValue(typed);

  // the final answer is the final text's
  await expect(page.getByTestId("error-rule-condition")).toHaveText(
    "1:44: unknown field transaction.amout; did you mean amount?",
  );
  await expect(page.getByTestId("condition-marker")).toContainText(typed);
  await expect(state).toHaveText("1 problem");
  await expect(page.getByRole("button", { name: "Save draft" })).toBeDisabled();
  await expect(condition).toHaveValue(typed);
  await page.screenshot({ path: `${SHOTS}/rules-slow-validation.png`, fullPage: true });

  // and no answer was ever shown beside text it was not the answer for
  const seen = await page.evaluate(
    () => (window as unknown as { seen: Array<{ state: string; errors: string[]; text: string }> }).seen,
  );
  expect(seen.map((s) => s.text)).toContain(first);
  for (const shown of seen) {
    if (shown.state === "Checking…" || shown.state === "") continue;
    const answer = answers.get(shown.text);
    expect(answer, `an answer for ${JSON.stringify(shown.text)}`).toBeDefined();
    expect(shown.state === "Valid", JSON.stringify(shown)).toBe(answer!.valid);
    const messages = answer!.errors.filter((e) => e.field === "condition").map((e) => e.message);
    expect(shown.errors, JSON.stringify(shown)).toEqual(messages);
  }
});

test("the live-status dialog takes focus even while Apply has nothing to apply, and Escape gives it back", async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/rules/TX-ROUND-AMOUNT");
  const opener = page.getByRole("button", { name: "Change live status…" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: /Change the status of v\d+/ });
  // Apply is disabled until another status is chosen: the current status takes focus, inside the dialog
  await expect(dialog.getByRole("button", { name: "Apply" })).toBeDisabled();
  await expect(dialog.getByRole("radio", { name: /Dry run/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
