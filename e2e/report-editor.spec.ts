import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect as baseExpect, test, type Page } from "@playwright/test";
import {
  DEMO_INDICATORS,
  DEMO_SCHEMA_NAME,
  demoFiuSchema,
  withIndicatorList,
} from "../lib/reports/demo-reports";
import { DEMO } from "../prisma/seed";
import { identificationVariant } from "../tests/goaml-variants";
import { createApiKeyWithCli, demoClientId } from "./support";

// A national FIU's schema that requires an identity document for the institution's own customer, which no draft
// has: the admin uploads it, an officer completes a draft only through the editor (adding the identification,
// prefilled from the customer's stored documents), a second officer files it, and xmllint accepts the download.
// The customer's name is hostile: right-to-left first name, a very long last name.
const SCREENS = "test-results/screens";
// Every save re-validates the file with libxml2; on a shared two-core machine that can take several seconds.
const expect = baseExpect.configure({ timeout: 20_000 });
const XSD = withIndicatorList(identificationVariant(), DEMO_INDICATORS);
const SCHEMA_NAME = "national-id-goaml.xsd";
const FIRST = "مريم";
const LAST = "Wanjiru-Abdulrahman-Oluwaseun-Kamau-Otieno-Mwangi-Njoroge-Kariuki-Mutua-Ochieng-Kiprono";
const PERSON = `${FIRST} ${LAST}`;

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard(\/cases|\/reports)?$/);
}

const group = (page: Page, title: string) =>
  page.locator(`[data-testid="editor-group"][data-group-title="${title}"]`);
const field = (page: Page, groupTitle: string, label: string) =>
  group(page, groupTitle).locator(`[data-testid="editor-field"][data-label="${label}"]`);
const input = (page: Page, groupTitle: string, label: string) =>
  field(page, groupTitle, label).getByTestId("editor-input");

async function uploadSchema(page: Page, name: string, xsd: string) {
  await signIn(page, DEMO.admin);
  await page.goto("/dashboard/settings");
  await page
    .getByTestId("goaml-schema-file")
    .setInputFiles({ name, mimeType: "application/xml", buffer: Buffer.from(xsd) });
  // checking an XSD and rechecking every unfiled report against it takes a while on a busy machine
  await expect(page.getByTestId("goaml-schema").getByRole("status")).toHaveText("Schema saved.", {
    timeout: 120_000,
  });
  await page.reload();
  await expect(page.getByTestId("goaml-schema-name")).toHaveText(name);
}

test.describe.serial("the draft editor completes what a national schema requires", () => {
  test.describe.configure({ timeout: 240_000 });
  let reportId = "";

  test.afterAll(async ({ browser }) => {
    // The other report specs expect the demo FIU's schema.
    const page = await browser.newPage();
    await uploadSchema(page, DEMO_SCHEMA_NAME, demoFiuSchema());
    await page.close();
  });

  test("an officer adds the required identification, prefilled from the stored documents", async ({
    page,
  }) => {
    await uploadSchema(page, SCHEMA_NAME, XSD);

    // A draft over the API for a customer with two identity documents on record.
    const apiKey = createApiKeyWithCli(await demoClientId());
    const now = Date.now();
    const res = await page.request.post("/v1/report", {
      headers: { authorization: `Bearer ${apiKey}` },
      data: {
        reportType: "STR",
        indicators: ["STR-STRUCT"],
        user: {
          id: "e2e-editor-subject",
          timestamp: now - 86_400_000,
          firstName: FIRST,
          lastName: LAST,
          dateOfBirth: "1985-03-14",
          phone: { phone: "+254711999888", country: "KE" },
          address: { postalCode: "00200", country: "KE", city: "Nairobi", street: "12 Moi Avenue" },
          documents: [
            { type: "national_id", number: "29384756", country: "KE" },
            { type: "passport", number: "AK1234567", country: "KE" },
          ],
        },
        transactions: [
          {
            id: "e2e-editor-tx-1",
            userId: "e2e-editor-subject",
            status: "APPROVED",
            currencyCode: "KES",
            amount: 1_950_000,
            timestamp: now - 3_600_000,
            direction: "payout",
            actionType: "withdrawal",
            paymentMethod: "bank",
            bank: { bankName: "Harbour Bank", routingNumber: "HB001", accountNumber: "001234569" },
            recipient: {
              firstName: "Peter",
              lastName: "Otieno",
              address: { postalCode: "80100", country: "KE", city: "Mombasa" },
              paymentMethod: "bank",
              bank: { bankName: "Harbour Bank", routingNumber: "HB001", accountNumber: "001234569" },
            },
          },
        ],
      },
    });
    expect(res.status()).toBe(200);
    reportId = ((await res.json()) as { reportId: string }).reportId;

    await signIn(page, DEMO.officer);
    await page.goto(`/dashboard/reports/${reportId}`);
    const verdict = page.getByTestId("goaml-verdict");
    await expect(verdict).toHaveAttribute("data-valid", "false");
    await expect(page.getByTestId("verdict-item")).toHaveText([
      `${PERSON} · Occupation is missing`,
      `${PERSON} · Identification is missing`,
    ]);
    await expect(page.getByTestId("transition-pending_review")).toBeDisabled();
    await page.screenshot({ path: `${SCREENS}/editor-identification-missing.png`, fullPage: true });

    // The verdict's link leads to the Add control of the customer's fields.
    await page.getByRole("link", { name: `${PERSON} · Identification is missing` }).click();
    const add = group(page, PERSON).getByTestId("add-element");
    await expect(add).toBeInViewport();
    await add.selectOption({ label: "Identification" });
    await group(page, PERSON).getByTestId("add-element-submit").click();
    await expect(group(page, PERSON).getByTestId("structure-done")).toBeVisible({ timeout: 30_000 });
    // the national id card on record, its code chosen by the schema's label
    await expect(input(page, PERSON, "Identification · Type")).toHaveValue("B");
    await expect(input(page, PERSON, "Identification · Number")).toHaveValue("29384756");
    await expect(input(page, PERSON, "Identification · Issue country")).toHaveValue("KE");
    await expect(page.getByTestId("verdict-item")).toHaveText([`${PERSON} · Occupation is missing`]);

    // A second identification is the passport; either may go while there are two, the last one may not.
    await add.selectOption({ label: "Another identification" });
    await group(page, PERSON).getByTestId("add-element-submit").click();
    await expect(input(page, PERSON, "Identification 2 · Number")).toHaveValue("AK1234567", {
      timeout: 30_000,
    });
    await expect(input(page, PERSON, "Identification 2 · Type")).toHaveValue("A");
    await group(page, PERSON).screenshot({ path: `${SCREENS}/editor-two-identifications.png` });
    const removeFirst = group(page, PERSON).locator(
      '[data-testid="remove-part"][data-part="Identification"]',
    );
    await expect(removeFirst).toHaveCount(1);
    await group(page, PERSON).locator('[data-testid="remove-part"][data-part="Identification 2"]').click();
    await expect(field(page, PERSON, "Identification 2 · Number")).toHaveCount(0, { timeout: 30_000 });
    // the one left is what the schema requires: no Remove for it
    await expect(removeFirst).toHaveCount(0);
    await expect(input(page, PERSON, "Identification · Number")).toHaveValue("29384756");

    // Dates are dates: the stored birth date in a date input, without a time.
    await expect(input(page, PERSON, "Date of birth")).toHaveAttribute("type", "date");
    await expect(input(page, PERSON, "Date of birth")).toHaveValue("1985-03-14");
    const tx = "Transaction 1 (e2e-editor-tx-1)";
    await expect(input(page, tx, "Transaction date")).toHaveAttribute("type", "datetime-local");

    // Required means non-empty: emptying the transaction's location marks it missing before and after saving.
    await input(page, tx, "Transaction location").fill("");
    await expect(field(page, tx, "Transaction location")).toContainText("missing");
    await group(page, tx).getByTestId("save-group").click();
    await expect(page.getByTestId("verdict-item")).toHaveText([
      `${tx} · Transaction location is missing`,
      `${PERSON} · Occupation is missing`,
    ]);
    await input(page, tx, "Transaction location").fill("Online — تطبيق الهاتف");
    await group(page, tx).getByTestId("save-group").click();
    await expect(page.getByTestId("verdict-item")).toHaveText([`${PERSON} · Occupation is missing`]);

    await input(page, PERSON, "Occupation").fill("Market trader");
    await group(page, PERSON).getByTestId("save-group").click();
    await expect(verdict).toHaveAttribute("data-valid", "true");
    await expect(page.getByTestId("goaml-valid")).toHaveText(`Valid against ${SCHEMA_NAME}.`);
    await page.screenshot({ path: `${SCREENS}/editor-identification-valid.png`, fullPage: true });
    await page.getByTestId("transition-pending_review").click();
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "pending_review", {
      timeout: 30_000,
    });
  });

  test("a second officer files it; xmllint accepts the download against the national schema", async ({
    page,
  }) => {
    await signIn(page, DEMO.officer2);
    await page.goto(`/dashboard/reports/${reportId}`);
    await page.getByTestId("fiu-reference").fill("FIU-E2E-ID-1");
    await page.getByTestId("transition-submitted").click();
    await expect(page.getByTestId("transition-done")).toHaveText("Report moved to submitted.", {
      timeout: 30_000,
    });
    await expect(page.getByTestId("report-status")).toHaveAttribute("data-status", "submitted");
    const download = await page.request.get(`/api/reports/${reportId}/goaml`);
    expect(download.status()).toBe(200);
    const xml = await download.text();
    expect(xml).toContain("<number>29384756</number>");
    expect(xml).toContain(`<first_name>${FIRST}</first_name>`);
    expect(xml).not.toContain("<number>AK1234567</number>");
    const dir = mkdtempSync(path.join(tmpdir(), "e2e-editor-"));
    writeFileSync(path.join(dir, "schema.xsd"), XSD);
    writeFileSync(path.join(dir, "report.xml"), xml);
    execFileSync(
      "/usr/bin/xmllint",
      ["--noout", "--schema", path.join(dir, "schema.xsd"), path.join(dir, "report.xml")],
      {
        stdio: "pipe",
      },
    );
    // and the national schema refuses the same file without the identification
    writeFileSync(
      path.join(dir, "bare.xml"),
      xml.replace(/<identification>[\s\S]*?<\/identification>\s*/g, ""),
    );
    expect(() =>
      execFileSync(
        "/usr/bin/xmllint",
        ["--noout", "--schema", path.join(dir, "schema.xsd"), path.join(dir, "bare.xml")],
        {
          stdio: "pipe",
        },
      ),
    ).toThrow();
    // the added and removed identifications are in the audit trail
    await page.reload();
    await expect(page.getByTestId("audit-chain")).toHaveAttribute("data-valid", "true");
    await expect(
      page.getByTestId("audit-entry").filter({ hasText: "identification[1]" }).first(),
    ).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/editor-identification-filed.png`, fullPage: true });
  });
});
