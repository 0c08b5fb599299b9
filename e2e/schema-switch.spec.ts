import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE_URL, signIn } from "./support";
import { SWITCH } from "./seed-schema-switch-data";
import { enumerationVariant, GENERIC_XSD } from "../tests/goaml-variants";

// An admin uploads a national FIU schema with other lookup and indicator codes. Nothing traps them: the settings
// page lists everything that no longer fits, the profile still saves (a stale code blocks only its own field),
// the rules list flags the stale indicators, one step maps every old code, and a new draft starts with no lookup
// problem — the page's list and the API's list being the same. Runs on a client of its own.

const SHOTS = "test-results/screens";
const RTL_ENTITY = "شركة المدفوعات للاختبار — فرع نيروبي الرئيسي";
const LONG_PERSON = "Maximiliana-Wilhelmina-Konstantinopolitanische".repeat(4);
const SCHEMA_FILE = "National-FIU-goAML-5.0.1.xsd";

let apiKey: string;

test.describe.configure({ mode: "serial" });
// the settings page is long and the machine shared: full-page screenshots take a while
test.setTimeout(240_000);

test.beforeAll(() => {
  const out = execFileSync("npx", ["tsx", "e2e/seed-schema-switch.ts"], {
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    encoding: "utf8",
  });
  ({ apiKey } = JSON.parse(out.trim().split("\n").pop()!) as { apiKey: string });
});

test("after a new FIU schema the admin sees what no longer fits, still saves, and maps old codes in one step", async ({
  page,
}) => {
  await signIn(page, SWITCH.admin);
  await page.goto("/dashboard/settings");
  const misfits = page.getByTestId("goaml-misfits");
  await expect(misfits).toHaveAttribute("data-count", "0");
  await expect(misfits).toContainText("fits Demo FIU goAML 5.0.1");

  // Upload the national schema: other contact types, transmission modes, funds types and indicators.
  const dir = mkdtempSync(path.join(tmpdir(), "e2e-switch-"));
  writeFileSync(path.join(dir, SCHEMA_FILE), enumerationVariant(GENERIC_XSD));
  await page.getByTestId("goaml-schema-file").setInputFiles(path.join(dir, SCHEMA_FILE));
  await expect(page.getByTestId("goaml-schema-name")).toHaveText(SCHEMA_FILE, { timeout: 30_000 });
  await expect(misfits).not.toHaveAttribute("data-count", "0");
  await expect(misfits).toContainText(`no longer fit ${SCHEMA_FILE}`);
  const contact = page.getByTestId("misfit-row").filter({ hasText: "Contact type" });
  await expect(contact).toContainText("Profile: Contact type (phones, addresses)");
  await expect(contact).toContainText("open draft");
  await expect(page.getByTestId("misfit-row").filter({ hasText: "STR-PROFILE" })).toContainText(
    "TX-LARGE-AMOUNT",
  );
  await expect(page.getByTestId("misfit-drafts")).toContainText("Structuring below the reporting threshold");
  await misfits.screenshot({ path: `${SHOTS}/schema-switch-1-misfits.png` });

  // The stale codes are shown where they sit: the contact type select names its code, the picker shows the
  // rule's stale indicator ticked so it can be unticked.
  await expect(page.getByTestId("stale-code").first()).toContainText(`1 is not a code of ${SCHEMA_FILE}`);
  const rule = page.getByTestId("indicator-rule-TX-LARGE-AMOUNT");
  await expect(rule).toContainText("STR-PROFILE not in the active schema");
  await rule.locator("summary").click();
  await expect(rule.getByTestId("indicator-TX-LARGE-AMOUNT-STR-PROFILE")).toBeChecked();
  await rule.screenshot({ path: `${SHOTS}/schema-switch-2-stale-indicator.png` });

  // Saving the parts that are fine is not blocked by the stale codes elsewhere (hostile values included).
  await page.getByLabel("Entity name").fill(RTL_ENTITY);
  await page.getByLabel("First name").fill(LONG_PERSON);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("settings-not-saved")).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Entity name")).toHaveValue(RTL_ENTITY);
  await expect(page.getByLabel("First name")).toHaveValue(LONG_PERSON);
  await page.screenshot({ path: `${SHOTS}/schema-switch-3-saved-with-stale.png`, fullPage: true });

  // The rules list flags rules whose indicators are stale.
  await page.goto("/dashboard/rules");
  const flagged = page.getByTestId("rule-stale-indicators");
  await expect(flagged.first()).toBeVisible();
  await expect(page.locator("tr", { hasText: "TX-LARGE-AMOUNT" }).first()).toContainText(
    "Indicator STR-PROFILE is not a code of the active goAML schema",
  );
  await page.screenshot({ path: `${SHOTS}/schema-switch-4-rules-flagged.png`, fullPage: true });

  // One step: every old code becomes a code of the new schema (one indicator is dropped).
  await page.goto("/dashboard/settings");
  const rows = page.getByTestId("misfit-row");
  const count = await rows.count();
  const target: Record<string, string> = {
    contact_type: "PRV",
    conduction_type: "WIRE",
    funds_type: "ACC",
    report_indicator_type: "NAT-STRUCT",
  };
  for (let i = 0; i < count; i++) {
    const select = rows.nth(i).locator("select");
    const [, list, code] = /^map-([a-z_]+)-(.*)$/.exec((await select.getAttribute("data-testid"))!)!;
    if (code === "STR-CASH") await select.selectOption({ label: "Drop it" });
    else if (code === "STR-MULE") await select.selectOption("code:NAT-MULE");
    else await select.selectOption(`code:${target[list!]}`);
  }
  await expect(page.getByTestId("apply-mappings")).toHaveText(`Apply ${count} mappings`);
  await misfits.screenshot({ path: `${SHOTS}/schema-switch-5-mapping-chosen.png` });
  await page.getByTestId("apply-mappings").click();
  await expect(misfits).toHaveAttribute("data-count", "0", { timeout: 30_000 });
  await expect(misfits).toContainText(`fits ${SCHEMA_FILE}`);
  await expect(page.getByTestId("stale-code")).toHaveCount(0);
  await expect(page.getByTestId("code-contactType")).toHaveValue("PRV");
  await expect(page.getByTestId("code-transmode-bank")).toHaveValue("WIRE");
  await expect(page.getByTestId("indicator-rule-TX-LARGE-AMOUNT")).toContainText("NAT-STRUCT");

  // And the profile saves as before.
  await page.getByLabel("Branch").fill("Head office ‏فرع‎");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("settings-not-saved")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/schema-switch-6-mapped-and-saved.png`, fullPage: true });

  await page.goto("/dashboard/rules");
  await expect(page.getByTestId("rule-stale-indicators")).toHaveCount(0);

  // The audit log has the one mapping step.
  await page.goto("/dashboard/audit");
  await expect(page.getByRole("cell", { name: "Mapped goAML codes to the active schema" })).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/schema-switch-8-audit.png` });
});

test("a new draft starts with no lookup problem, and the page lists exactly the API's incomplete paths", async ({
  page,
}) => {
  const res = await page.request.post("/v1/report", {
    headers: { authorization: `Bearer ${apiKey}` },
    data: {
      reportType: "STR",
      title: "Structuring after the schema change",
      userId: "demo-report-subject",
      transactionIds: ["demo-report-tx-1", "demo-report-tx-2"],
      indicators: ["NAT-STRUCT"],
    },
  });
  expect(res.status()).toBe(200);
  const created = (await res.json()) as { reportId: string; incomplete: string[] };
  // Only facts nobody has on record: no contact type, transmission mode, funds or indicator code.
  expect(
    created.incomplete.filter((p) => /contact_type|transmode|funds_code|report_indicators/.test(p)),
  ).toEqual([]);

  await signIn(page, SWITCH.officer);
  await page.goto(`/dashboard/reports/${encodeURIComponent(created.reportId)}`);
  const items = page.getByTestId("verdict-item");
  await expect(items.first()).toBeVisible();
  const pagePaths = (
    await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-paths") ?? ""))
  ).flatMap((p) => p.split(" "));
  // The page groups a field missing in several places into one item; the paths are the API's, every one.
  expect(pagePaths.toSorted()).toEqual(created.incomplete.toSorted());
  await expect(page.getByTestId("goaml-problems")).not.toContainText("is not");
  await page.screenshot({ path: `${SHOTS}/schema-switch-7-new-draft.png`, fullPage: true });

  // The download refuses with the same list.
  const download = await page.request.get(`/api/reports/${encodeURIComponent(created.reportId)}/goaml`);
  expect(download.status()).toBe(422);
  const details = ((await download.json()) as { error: { details: string[] } }).error.details;
  expect(details.map((d) => d.slice(0, d.indexOf(": ")))).toEqual(created.incomplete);
  // (The 184-character first name typed in Settings is longer than the schema allows: listed in all three.)
  expect(created.incomplete).toContain("reporting_person.first_name");
});
