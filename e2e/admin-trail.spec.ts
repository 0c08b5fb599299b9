import { readFileSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { DEMO } from "../prisma/seed";
import {
  createApiKeyWithCli,
  E2E_DATABASE_URL,
  demoClientId,
  expectNoAxeViolations,
  expectNoClippedTables,
  expectNoHorizontalScroll,
  signIn,
  startReceiver,
  waitFor,
  type TReceiver,
} from "./support";

// What an admin does that nobody else may: read the audit trail (filtered, linked, exported as CSV
// that no spreadsheet runs), change a member's role and reset a password (the member sets a new one
// at sign-in), retry a waiting webhook now and redeliver every failed one, publish a rule with a note
// and see the page change at once, and learn that a list value was there already. Hostile data: a
// very long name without spaces, a right-to-left override, spreadsheet formulas.

const SHOTS = "test-results/screens";
const SECRET = "e2e-trail-secret-with-at-least-32-characters";
const LONG_NAME = `Wolfeschlegelsteinhausenbergerdorff${"x".repeat(150)}`;
const RTL_NAME = "Mallory \u202Elive\u202C Smith";

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 800 } });

let clientId = "";
let adminId = "";

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await db.connect();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}

test.beforeAll(async () => {
  clientId = await demoClientId();
  adminId = (
    await sql<{ id: string }>(`SELECT id FROM dashboard_users WHERE email = $1`, [DEMO.admin.email])
  )[0]!.id;
  // hostile audit entries: a formula in a list name, a long actor name without spaces
  await sql(
    `INSERT INTO audit_logs (id, "clientId", "actorType", "actorId", action, "entityType", "entityId", details, "createdAt")
     VALUES ('e2e-audit-formula', $1, 'dashboard_user', $2, 'list.entry_added', 'list', 'no-such-list',
             $3::jsonb, now() - interval '2 days')`,
    [
      clientId,
      adminId,
      JSON.stringify({ list: '=HYPERLINK("http://evil.test","click")', value: "@SUM(1+1)" }),
    ],
  );
});

async function newMember(page: Page, email: string, name: string, role = "reviewer") {
  await page.goto("/dashboard/team");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Create user" }) });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Role").selectOption(role);
  await form.getByLabel(/Initial password/).fill("initial-password-1");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByTestId("team-row").filter({ hasText: email })).toBeVisible();
}

test("team: change a member's role and reset a password; the member sets a new one at sign-in", async ({
  page,
  browser,
}) => {
  // five password hashes (two members, a reset, two new passwords) and a second browser context
  test.setTimeout(150_000);
  await signIn(page, DEMO.admin);
  await newMember(page, "long.name@demo.test", LONG_NAME);
  await newMember(page, "mallory@demo.test", RTL_NAME);
  const row = page.getByTestId("team-row").filter({ hasText: "mallory@demo.test" });

  // role: a confirmation that says what the role may do, then a note, and the row shows it
  await row.getByTestId("member-role").selectOption("reporting_officer");
  const confirm = page.getByRole("dialog", { name: /Make .* Reporting officer\?/ });
  await expect(confirm).toContainText("files regulatory reports");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/team-role-confirm.png`, fullPage: true });
  await confirm.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByText(/is now Reporting officer\./)).toBeVisible();
  await expect(row.getByTestId("member-role")).toHaveValue("reporting_officer");

  // reset: confirmed, the temporary password shown once
  await row.getByRole("button", { name: "Reset password…" }).click();
  const reset = page.getByRole("dialog", { name: /Reset the password of/ });
  await expect(reset).toContainText("stops working at once");
  await reset.getByRole("button", { name: "Reset password" }).click();
  const issued = page.getByTestId("temporary-password");
  await expect(issued).toBeVisible();
  const temporary = (await issued.locator("code").textContent())!.trim();
  expect(temporary).toMatch(/^[\w-]{16}$/);
  await expect(row).toContainText("Password reset");
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/team-reset-issued.png`, fullPage: true });

  await memberSetsNewPassword(browser, temporary);
});

async function memberSetsNewPassword(browser: Browser, temporary: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill("mallory@demo.test");
  await page.getByLabel("Password").fill(temporary);
  await page.getByRole("button", { name: "Sign in" }).click();
  // any dashboard page sends them to set a password first
  await expect(page).toHaveURL(/\/password$/);
  await page.goto("/dashboard/reports");
  await expect(page).toHaveURL(/\/password$/);
  await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  await page.getByLabel(/New password/).fill(temporary);
  await page.getByLabel("The same again").fill(temporary);
  await page.getByRole("button", { name: "Set password and continue" }).click();
  await expect(page.getByTestId("password-error")).toContainText("different from the temporary one");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/password-set-new.png`, fullPage: true });
  await page.getByLabel(/New password/).fill("mallory-own-password");
  await page.getByLabel("The same again").fill("mallory-own-password");
  await page.getByRole("button", { name: "Set password and continue" }).click();
  // setting it ends the session: sign in with the new password; a reporting officer now, home is reports
  await expect(page).toHaveURL(/\/login\?/, { timeout: 20_000 });
  await expect(page.getByTestId("login-error")).toContainText("Your new password is set");
  await page.getByLabel("Email").fill("mallory@demo.test");
  await page.getByLabel("Password").fill("mallory-own-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/reports$/);
  await context.close();
}

test("audit trail: newest first, filtered, linked to each object, exported without formulas", async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/audit");
  await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
  const rows = page.getByTestId("audit-row");
  await expect(rows.first()).toBeVisible();
  // the team changes just made, in words, by name, newest first (sign-ins are audited too)
  const actions = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-action")));
  const reset = actions.indexOf("dashboard_user.password_reset");
  const changed = actions.indexOf("dashboard_user.role_changed");
  expect(reset).toBeGreaterThanOrEqual(0);
  expect(changed).toBeGreaterThan(reset);
  const resetRow = rows.nth(reset);
  await expect(resetRow).toContainText("Reset a team member's password");
  await expect(resetRow).toContainText("Ada Admin");
  await expect(resetRow.getByTestId("audit-object-link")).toHaveAttribute("href", "/dashboard/team");
  await expect(rows.nth(changed)).toContainText("to: reporting_officer");
  await expectNoHorizontalScroll(page);
  await expectNoClippedTables(page);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/audit-trail.png`, fullPage: true });

  // filter by action: only those rows, and the address keeps the filter
  await page.getByRole("combobox", { name: /^Action/ }).selectOption("dashboard_user.created");
  await expect(page).toHaveURL(/action=dashboard_user.created/);
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Added a team member");
  // the long name is cut on screen, whole on hover
  const longCell = rows.filter({ hasText: "Wolfeschlegel" }).getByTestId("audit-object-link");
  await expect(longCell).toBeVisible();
  await expectNoHorizontalScroll(page);
  await page.screenshot({ path: `${SHOTS}/audit-trail-filtered.png`, fullPage: true });

  // filter by who: the reviewer has done none of these
  const reviewerId = (
    await sql<{ id: string }>(`SELECT id FROM dashboard_users WHERE email = $1`, [DEMO.reviewer.email])
  )[0]!.id;
  await page.getByRole("combobox", { name: /^Who/ }).selectOption(reviewerId);
  await expect(page.getByText("No audited changes match these filters.")).toBeVisible();
  await page.getByRole("combobox", { name: /^Who/ }).selectOption("");
  await page.getByRole("combobox", { name: /^Action/ }).selectOption("");

  // each entry links to its object: a team change opens the team page
  await page.getByRole("combobox", { name: /^Object/ }).selectOption("dashboard_user");
  await rows.first().getByTestId("audit-object-link").click();
  await expect(page).toHaveURL(/\/dashboard\/team$/);

  // CSV export of the current filters; the formula cell is neutralised
  await page.goto("/dashboard/audit?action=list.entry_added");
  await expect(rows.first()).toContainText("Added a list entry");
  const download = page.waitForEvent("download");
  await page.getByTestId("audit-export").click();
  const file = await (await download).path();
  const csv = readFileSync(file, "utf8");
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toBe("time,actor,actor email,action,action code,object type,object,details");
  const formula = lines.find((l) => l.includes("HYPERLINK"))!;
  expect(formula).toContain(`"'=HYPERLINK(`);
  expect(formula).toContain("Ada Admin");
  for (const line of lines.slice(1)) expect(line).not.toMatch(/(^|,)"?[=+\-@]/);
});

test("a reviewer and a reporting officer cannot open the audit trail", async ({ page, browser }) => {
  await signIn(page, DEMO.reviewer);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit trail" }),
  ).toHaveCount(0);
  await page.goto("/dashboard/audit");
  await expect(page.getByRole("heading", { name: "Not available for your role" })).toBeVisible();
  expect((await page.request.get("/dashboard-api/audit")).status()).toBe(403);
  expect((await page.request.get("/dashboard-api/audit/export")).status()).toBe(403);
  await page.screenshot({ path: `${SHOTS}/audit-trail-reviewer.png`, fullPage: true });

  const context = await browser.newContext();
  const officer = await context.newPage();
  await signIn(officer, DEMO.officer);
  await officer.goto("/dashboard/audit");
  await expect(officer.getByRole("heading", { name: "Not available for your role" })).toBeVisible();
  expect(
    (
      await officer.request.post(`/dashboard-api/team/${adminId}/role`, {
        headers: { origin: new URL(officer.url()).origin },
        data: { role: "reviewer" },
      })
    ).status(),
  ).toBe(403);
  await context.close();
});

test.describe("webhooks", () => {
  let receiver: TReceiver;
  let answer = 500;

  test.beforeAll(async () => {
    receiver = await startReceiver(SECRET, () => answer);
  });
  test.afterAll(async () => {
    await receiver.close();
  });

  test("retry now on a waiting delivery, redeliver all failed of a subscription", async ({ page }) => {
    await signIn(page, DEMO.admin);
    const created = await page.request.post("/dashboard-api/webhooks", {
      headers: { origin: new URL(page.url()).origin },
      data: { url: receiver.url, events: ["user.status.block"], secret: SECRET },
    });
    expect(created.status()).toBe(200);
    const subscriptionId = ((await created.json()) as { id: string }).id;

    // three users blocked through the API: each delivery fails every attempt (500) and ends failed
    const headers = { authorization: `Bearer ${createApiKeyWithCli(clientId)}` };
    for (const userId of ["e2e-trail-u1", "e2e-trail-u2", "e2e-trail-u3"]) {
      const onboard = await page.request.post("/v1/user/onboard", {
        headers,
        data: { id: userId, firstName: "Trail", lastName: "User", timestamp: Date.now() },
      });
      expect(onboard.status()).toBe(200);
      const block = await page.request.put(`/v1/users/${userId}/block`, {
        headers,
        data: { comment: "e2e" },
      });
      expect(block.status()).toBe(200);
    }
    const failed = await waitFor(
      async () => {
        const rows = await sql<{ id: string }>(
          `SELECT id FROM webhook_deliveries WHERE "subscriptionId" = $1 AND status = 'failed'`,
          [subscriptionId],
        );
        return rows.length === 3 ? rows : null;
      },
      30_000,
      "three failed deliveries",
    );

    // one of them waits an hour for its next attempt instead (as on the default schedule)
    const waiting = failed[0]!.id;
    await sql(
      `UPDATE webhook_deliveries SET status = 'pending', "nextAttemptAt" = now() + interval '1 hour' WHERE id = $1`,
      [waiting],
    );
    answer = 200;
    await page.goto("/dashboard/webhooks");
    const waitingRow = page.locator(`[data-testid="delivery-row"][data-state="retrying"]`).first();
    await expect(waitingRow).toBeVisible();
    await expect(waitingRow.getByTestId("next-attempt")).toContainText("in 60 min");
    await page.screenshot({ path: `${SHOTS}/webhooks-retrying.png`, fullPage: true });
    await waitingRow.getByRole("button", { name: "Retry now" }).click();
    await expect(page.getByText(/next attempt now instead of at its scheduled time/)).toBeVisible();
    await waitFor(
      async () =>
        (await sql(`SELECT 1 FROM webhook_deliveries WHERE id = $1 AND status = 'delivered'`, [waiting]))
          .length
          ? true
          : null,
      30_000,
      "the retried delivery to arrive",
    );
    expect(
      receiver.received.filter((r) => r.deliveryId === waiting && r.answered === 200 && r.verified),
    ).toHaveLength(1);

    // redeliver all failed: confirmed, counted, delivered
    const sub = page.getByTestId("subscription-row").filter({ hasText: receiver.url });
    await sub.getByRole("button", { name: "Redeliver all failed…" }).click();
    const confirm = page.getByRole("dialog", { name: "Redeliver every failed delivery?" });
    await expect(confirm).toContainText(receiver.url);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/webhooks-redeliver-all.png`, fullPage: true });
    await confirm.getByRole("button", { name: "Redeliver all failed" }).click();
    await expect(page.getByText("2 failed deliveries queued to be sent again.")).toBeVisible();
    await waitFor(
      async () =>
        (
          await sql(
            `SELECT 1 FROM webhook_deliveries WHERE "subscriptionId" = $1 AND status <> 'delivered'`,
            [subscriptionId],
          )
        ).length === 0
          ? true
          : null,
      30_000,
      "every delivery of the subscription to arrive",
    );
    await page.screenshot({ path: `${SHOTS}/webhooks-after-redeliver.png`, fullPage: true });
    const audited = await sql<{ action: string }>(
      `SELECT action FROM audit_logs WHERE "clientId" = $1 AND action IN ('webhook.retried_now', 'webhook.redelivered_failed')`,
      [clientId],
    );
    expect(audited.map((a) => a.action).sort()).toEqual([
      "webhook.redelivered_failed",
      "webhook.retried_now",
    ]);
    await page.request.post(`/dashboard-api/webhooks/${subscriptionId}/disable`, {
      headers: { origin: new URL(page.url()).origin },
      data: {},
    });
  });
});

test("publishing a rule asks for a note, describes each status, and the page changes at once", async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  const rule = "TX-ROUND-AMOUNT";
  await page.goto(`/dashboard/rules/${rule}`);
  // a draft to publish: save the editor as it is
  await page.getByLabel("Reason").fill("Round amount (reviewed)");
  await page.getByRole("button", { name: /Save draft/ }).click();
  await expect(page.getByTestId("saved-note")).toContainText("Saved as draft");
  const draftButton = page.getByRole("button", { name: /^Publish draft v\d+…$/ });
  const label = (await draftButton.textContent())!;
  const version = /v(\d+)/.exec(label)![1]!;
  await draftButton.click();
  const dialog = page.getByRole("dialog", { name: `Publish draft v${version}` });
  // each status says what it is for
  const texts = await dialog.locator("fieldset label").allTextContents();
  expect(new Set(texts).size).toBe(3);
  await expect(dialog).toContainText("a trial");
  await expect(dialog).toContainText("silenced");
  // no note, no publish
  await dialog.getByRole("radio", { name: /Dry run/ }).check();
  await expect(dialog.getByRole("button", { name: "Publish as Dry run" })).toBeDisabled();
  await dialog.getByLabel("Change note").fill(`Trial of the reviewed reason ${RTL_NAME}`);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/rule-publish-note.png`, fullPage: true });
  await dialog.getByRole("button", { name: "Publish as Dry run" }).click();
  // at once: no "Draft" left, the new live version and a confirmation
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: /^Publish draft/ })).toHaveCount(0);
  await expect(page.getByTestId("live-version")).toContainText(`v${version}`);
  await expect(page.getByTestId("rule-status")).toHaveText("Dry run");
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: `Published v${version} as Dry run` })
      .first(),
  ).toBeVisible();
  // and the note is in the version history
  await expect(page.getByTestId(`version-${version}`).getByTestId("publish-note")).toContainText(
    "Trial of the reviewed reason",
  );
  // people by name, not by email: who saved the version and who published it
  const saved = page.getByTestId(`version-${version}`);
  await expect(saved).toContainText("Ada Admin");
  await expect(saved).not.toContainText(DEMO.admin.email);
  await expect(saved.getByTestId("publish-note")).toContainText("by Ada Admin");
  await page.screenshot({ path: `${SHOTS}/rule-published-note.png`, fullPage: true });

  // leave it as seeded, which the other specs expect: v1 live as a dry run
  const restored = await page.request.post(`/dashboard-api/rules/${rule}/publish`, {
    headers: { origin: new URL(page.url()).origin },
    data: { version: 1, status: "dry-run", note: "Restored for the other specs" },
  });
  expect(restored.status()).toBe(200);
});

test("lists: a value already there is reported, its note replaced only on request; countries upper case", async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  const created = await page.request.post("/dashboard-api/lists", {
    headers: { origin: new URL(page.url()).origin },
    data: { name: "e2e-trail-countries", kind: "country" },
  });
  expect(created.status()).toBe(200);
  const listId = ((await created.json()) as { id: string }).id;
  await page.goto(`/dashboard/lists/${listId}`);
  const form = page.locator("form", { has: page.getByRole("button", { name: "Add entry" }) });
  await form.getByLabel("Value").fill("ir");
  await form.getByLabel("Note").fill("sanctioned");
  await form.getByRole("button", { name: "Add entry" }).click();
  await expect(page.getByText("Added IR to the list.")).toBeVisible();

  await form.getByLabel("Value").fill("Ir");
  await form.getByLabel("Note").fill("high risk");
  await form.getByRole("button", { name: "Add entry" }).click();
  const exists = page.getByTestId("entry-exists");
  await expect(exists).toContainText(
    "IR is already in the list with the note “sanctioned”. Nothing was changed.",
  );
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SHOTS}/list-entry-exists.png`, fullPage: true });
  await exists.getByRole("button", { name: "Replace its note with “high risk”" }).click();
  await expect(page.getByText("Updated the note of IR.")).toBeVisible();
  await expect(page.getByText("high risk")).toBeVisible();
  await expect(page.getByText("sanctioned")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/list-entry-updated.png`, fullPage: true });
});
