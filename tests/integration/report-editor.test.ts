import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TClientContext } from "@/lib/clients/client-context";
import { prisma } from "@/lib/db";
import { getAtPath, type TContent } from "@/lib/reports/content";
import { createReport } from "@/lib/reports/create-report";
import {
  DEMO_INDICATORS,
  DEMO_REPORTING_PROFILE,
  seedDemoReports,
  withIndicatorList,
} from "@/lib/reports/demo-reports";
import { editReportStructure } from "@/lib/reports/edit-report-structure";
import { activeSchema, exportGoamlXml } from "@/lib/reports/goaml-xml";
import { reportVerdict } from "@/lib/reports/report-verdict";
import { readReportProfile, ZCreateReport } from "@/lib/reports/schemas";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { createTestClient } from "@/tests/factories";
import {
  employerVariant,
  GENERIC_XSD,
  identificationVariant,
  twoPhonesVariant,
} from "@/tests/goaml-variants";

// The draft editor against national schemas that want what the demo drafts do not have: an element can be added
// wherever the schema allows one (prefilled from the stored customer), removed when optional, and values are
// taken as people write them. Every finished file is checked with xmllint --schema, as an FIU would.

const officer = { type: "dashboard" as const, id: "officer-1" };
const dir = mkdtempSync(path.join(tmpdir(), "editor-test-"));
const customer = (i: number) => `transactions[${i}].t_from_my_client.from_person`;
const BOTH = [customer(0), customer(1)];

function xmllint(xml: string, xsd: string): { ok: boolean; output: string } {
  const xsdFile = path.join(dir, `s-${Math.random().toString(36).slice(2)}.xsd`);
  const file = path.join(dir, `r-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(xsdFile, xsd);
  writeFileSync(file, xml);
  try {
    execFileSync("/usr/bin/xmllint", ["--noout", "--schema", xsdFile, file], { stdio: "pipe" });
    return { ok: true, output: "" };
  } catch (err) {
    return { ok: false, output: String((err as { stderr?: Buffer }).stderr ?? err) };
  }
}

/** A client on the FIU schema `xsd` with a fresh STR of the demo customer's two payouts. */
async function draftUnder(xsd: string, name: string) {
  const { clientId } = await createTestClient({ features: ["reporting"], name });
  await seedDemoReports(clientId);
  await prisma.client.update({
    where: { id: clientId },
    data: { reportingProfile: { ...DEMO_REPORTING_PROFILE, goamlSchemaXsd: xsd, goamlSchemaName: name } },
  });
  const row = await prisma.client.findUniqueOrThrow({ where: { id: clientId } });
  const client: TClientContext = {
    id: clientId,
    name: row.name,
    type: row.type,
    features: new Set(row.features),
    actions: row.actions,
    apiKeyId: "test",
  };
  const created = await createReport({
    client,
    body: ZCreateReport.parse({
      reportType: "STR",
      userId: "demo-report-subject",
      transactionIds: ["demo-report-tx-1", "demo-report-tx-2"],
      indicators: ["STR-STRUCT"],
    }),
  });
  return { clientId, reportId: created.reportId };
}

const stored = async (clientId: string, reportId: string) =>
  prisma.report.findUniqueOrThrow({ where: { clientId_id: { clientId, id: reportId } } });

async function verdictOf(clientId: string, reportId: string) {
  const row = await stored(clientId, reportId);
  const client = await prisma.client.findUniqueOrThrow({ where: { id: clientId } });
  return reportVerdict(row.content as TContent, activeSchema(readReportProfile(client.reportingProfile)));
}

async function exported(clientId: string, reportId: string) {
  const row = await stored(clientId, reportId);
  const client = await prisma.client.findUniqueOrThrow({ where: { id: clientId } });
  return exportGoamlXml(row.content as TContent, readReportProfile(client.reportingProfile));
}

// What the demo drafts lack under any schema: the customer's KYC facts, and where the payouts were made.
const KYC = {
  ...Object.fromEntries(
    BOTH.flatMap((p) => [
      [`${p}.birthdate`, "14/03/1985"],
      [`${p}.occupation`, "Market trader"],
    ]),
  ),
  "transactions[0].transaction_location": "Online (mobile app)",
  "transactions[1].transaction_location": "Online (mobile app)",
};

describe("a national schema that requires an identification of the institution's customer", () => {
  const xsd = withIndicatorList(identificationVariant(), DEMO_INDICATORS);

  it("is reported missing with a link to the Add control; adding it fills the stored identity document", async () => {
    const { clientId, reportId } = await draftUnder(xsd, "Identification FIU");
    const before = await verdictOf(clientId, reportId);
    const item = before.items.find((i) => i.text.includes("Identification"));
    expect(item).toMatchObject({ text: "Daniel Kamau · Identification is missing (in 2 places)" });
    const daniel = before.groups.find((g) => g.title === "Daniel Kamau")!;
    expect(item!.fieldId).toBe(`add-${daniel.id}`);
    const self = daniel.parts.find((p) => p.label === "")!;
    expect(self.paths).toEqual(BOTH);
    // Both branches of the choice are offered; the simple value editor alone cannot create the element.
    expect(self.add.map((a) => a.element)).toEqual(
      expect.arrayContaining(["identification", "identifications"]),
    );
    await expect(
      setReportFields({
        clientId,
        reportId,
        actor: officer,
        fields: { [`${customer(0)}.identification[0].number`]: "29384756" },
      }),
    ).rejects.toMatchObject({ code: "conflict" });

    const audits = await prisma.reportAuditEntry.count({ where: { clientId, reportId } });
    await editReportStructure({
      clientId,
      reportId,
      actor: officer,
      change: { op: "add", parents: self.paths, element: "identification" },
    });
    const content = (await stored(clientId, reportId)).content as TContent;
    for (const p of BOTH)
      // the national id on record, and "National identity card" by the schema's label
      expect(getAtPath(content, `${p}.identification`)).toEqual([
        { type: "B", number: "29384756", issue_country: "KE" },
      ]);
    const entry = await prisma.reportAuditEntry.findFirstOrThrow({
      where: { clientId, reportId, seq: { gt: audits } },
      orderBy: { seq: "desc" },
    });
    expect(entry.action).toBe("fields_updated");
    expect(Object.keys((entry.changes as { fields: object }).fields)).toEqual(
      BOTH.map((p) => `${p}.identification[0]`),
    );

    await setReportFields({ clientId, reportId, actor: officer, fields: KYC });
    const after = await verdictOf(clientId, reportId);
    expect(after).toMatchObject({ valid: true, items: [] });
    const result = await exported(clientId, reportId);
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.xml).toContain("<birthdate>1985-03-14T00:00:00</birthdate>");
    expect(result.xml.match(/<identification>/g)).toHaveLength(2);
    expect(xmllint(result.xml, xsd)).toEqual({ ok: true, output: "" });
    // The same file is refused by the national schema without the identification: the variant really requires it.
    const without = result.xml.replace(/<identification>[\s\S]*?<\/identification>\s*/g, "");
    expect(xmllint(without, xsd).ok).toBe(false);
  });

  it("adds a second identification empty, removes it again, and never removes the required one", async () => {
    const { clientId, reportId } = await draftUnder(xsd, "Identification FIU 2");
    await editReportStructure({
      clientId,
      reportId,
      actor: officer,
      change: { op: "add", parents: BOTH, element: "identification" },
    });
    const { groups } = await verdictOf(clientId, reportId);
    const daniel = groups.find((g) => g.title === "Daniel Kamau")!;
    expect(daniel.parts.find((p) => p.label === "")!.add).toContainEqual({
      element: "identification",
      label: "Another identification",
    });
    // the only identification is what the schema requires: not offered for removal, and refused if asked
    expect(daniel.parts.find((p) => p.label === "Identification")!.removable).toBe(false);
    await expect(
      editReportStructure({
        clientId,
        reportId,
        actor: officer,
        change: { op: "remove", paths: BOTH.map((p) => `${p}.identification[0]`) },
      }),
    ).rejects.toMatchObject({
      details: expect.arrayContaining([
        `/${customer(0)}.identification[0]: ${customer(0)}.identification[0] is required by the schema and cannot be removed`,
      ]),
    });
    await editReportStructure({
      clientId,
      reportId,
      actor: officer,
      change: { op: "add", parents: BOTH, element: "identification" },
    });
    const second = (await stored(clientId, reportId)).content as TContent;
    // no second document on record: the new one is empty, its required values missing
    expect(getAtPath(second, `${customer(0)}.identification[1]`)).toEqual({
      type: null,
      number: null,
      issue_country: null,
    });
    expect((await stored(clientId, reportId)).incomplete).toContain(
      `${customer(0)}.identification[1].number`,
    );
    const shown = (await verdictOf(clientId, reportId)).groups.find((g) => g.title === "Daniel Kamau")!;
    const part = shown.parts.find((p) => p.label === "Identification 2")!;
    expect(part).toMatchObject({ removable: true, paths: BOTH.map((p) => `${p}.identification[1]`) });
    await editReportStructure({
      clientId,
      reportId,
      actor: officer,
      change: { op: "remove", paths: part.paths },
    });
    const back = (await stored(clientId, reportId)).content as TContent;
    expect(getAtPath(back, `${customer(0)}.identification`)).toHaveLength(1);
    expect((await stored(clientId, reportId)).incomplete).not.toContain(
      `${customer(0)}.identification[1].number`,
    );
    // the phone list is required: its only phone stays
    await expect(
      editReportStructure({
        clientId,
        reportId,
        actor: officer,
        change: { op: "remove", paths: [`${customer(0)}.phones[0]`] },
      }),
    ).rejects.toMatchObject({ code: "validation" });
    // something the schema does not allow there is refused
    await expect(
      editReportStructure({
        clientId,
        reportId,
        actor: officer,
        change: { op: "add", parents: [customer(0)], element: "incorporation_number" },
      }),
    ).rejects.toMatchObject({ code: "validation" });
  });
});

describe("a national schema with a minimum of two phones", () => {
  it("asks for the second phone, adds it through the editor and files a valid report", async () => {
    const xsd = withIndicatorList(twoPhonesVariant(), DEMO_INDICATORS);
    const { clientId, reportId } = await draftUnder(xsd, "Two phones FIU");
    const row = await stored(clientId, reportId);
    expect(row.incomplete).toEqual(expect.arrayContaining(BOTH.map((p) => `${p}.phones[1]`)));
    const verdict = await verdictOf(clientId, reportId);
    expect(verdict.items.map((i) => i.text)).toContain("Daniel Kamau · Phones is missing (in 2 places)");
    await editReportStructure({
      clientId,
      reportId,
      actor: officer,
      change: { op: "add", parents: BOTH, element: "phones" },
    });
    // the stored phone is already the first one: the second is empty, the profile's codes filled in
    const content = (await stored(clientId, reportId)).content as TContent;
    expect(getAtPath(content, `${customer(0)}.phones[1]`)).toEqual({
      tph_contact_type: "1",
      tph_communication_type: "M",
      tph_country_prefix: null,
      tph_number: null,
    });
    await setReportFields({
      clientId,
      reportId,
      actor: officer,
      fields: {
        ...KYC,
        ...Object.fromEntries(
          BOTH.flatMap((p) => [
            [`${p}.phones[1].tph_communication_type`, "L"],
            [`${p}.phones[1].tph_country_prefix`, "254"],
            [`${p}.phones[1].tph_number`, "202000111"],
          ]),
        ),
      },
    });
    expect(await verdictOf(clientId, reportId)).toMatchObject({ valid: true, items: [] });
    const result = await exported(clientId, reportId);
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(xmllint(result.xml, xsd)).toEqual({ ok: true, output: "" });
  });
});

describe("a national schema that requires the employer (a choice of two forms)", () => {
  it("offers both forms, and the employer's name completes the file", async () => {
    const xsd = withIndicatorList(employerVariant(), DEMO_INDICATORS);
    const { clientId, reportId } = await draftUnder(xsd, "Employer FIU");
    const verdict = await verdictOf(clientId, reportId);
    expect(verdict.items.map((i) => i.text)).toContain("Daniel Kamau · Employer is missing (in 2 places)");
    const daniel = verdict.groups.find((g) => g.title === "Daniel Kamau")!;
    expect(daniel.parts[0]!.add.map((a) => a.element)).toEqual(
      expect.arrayContaining(["employer_name", "employment_history"]),
    );
    await setReportFields({
      clientId,
      reportId,
      actor: officer,
      fields: {
        ...KYC,
        ...Object.fromEntries(BOTH.map((p) => [`${p}.employer_name`, "Harbour Traders Ltd"])),
      },
    });
    const done = await verdictOf(clientId, reportId);
    expect(done).toMatchObject({ valid: true, items: [] });
    // once a form is taken, the other is no longer offered
    expect(
      done.groups.find((g) => g.title === "Daniel Kamau")!.parts[0]!.add.map((a) => a.element),
    ).not.toContain("employment_history");
    const result = await exported(clientId, reportId);
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(xmllint(result.xml, xsd)).toEqual({ ok: true, output: "" });
  });
});

describe("required means non-empty", () => {
  it("flags an empty required value in the editor and the verdict, and never files it empty", async () => {
    const { clientId, reportId } = await draftUnder(GENERIC_XSD, "Empty values");
    const kycOnly = Object.fromEntries(
      Object.entries(KYC).filter(([p]) => !p.endsWith("transaction_location")),
    );
    await setReportFields({ clientId, reportId, actor: officer, fields: kycOnly });
    // Drafts populated before stored "" for a payout without a terminal, which the schema's minLength 0 accepts.
    const populated = (await stored(clientId, reportId)).content as TContent;
    expect(getAtPath(populated, "transactions[0].transaction_location")).toBe("Head office");
    const blank = structuredClone(populated) as { transactions: { transaction_location: string }[] };
    for (const t of blank.transactions) t.transaction_location = "";
    await prisma.report.update({
      where: { clientId_id: { clientId, id: reportId } },
      data: { content: blank },
    });
    const verdict = await verdictOf(clientId, reportId);
    expect(verdict.valid).toBe(false);
    expect(verdict.items.map((i) => i.text)).toContain(
      "Transaction 1 (demo-report-tx-1) · Transaction location is missing",
    );
    const location = verdict.groups
      .flatMap((g) => g.fields)
      .find((f) => f.paths.includes("transactions[0].transaction_location"))!;
    expect(location).toMatchObject({ required: true, missing: true, value: "" });
    expect(verdict.xml).not.toContain("<transaction_location>");
    expect(verdict.xml).not.toContain("<transaction_location></transaction_location>");
    expect(await exported(clientId, reportId)).toMatchObject({ ok: false, reason: "incomplete" });

    // An emptied required name is missing (null), not an empty string.
    await setReportFields({
      clientId,
      reportId,
      actor: officer,
      fields: {
        [`${customer(0)}.first_name`]: "   ",
        "transactions[0].transaction_location": "Nairobi branch",
        "transactions[1].transaction_location": "Nairobi branch",
      },
    });
    const after = await stored(clientId, reportId);
    expect(getAtPath(after.content as TContent, `${customer(0)}.first_name`)).toBeNull();
    // missing values first, then the values the schema refuses: the draft's indicator STR-STRUCT is not
    // a code of this schema
    expect(after.incomplete).toEqual([`${customer(0)}.first_name`, "report_indicators[0]"]);
  });
});

describe("values as people write them", () => {
  it("takes unambiguous dates and grouped amounts, refuses ambiguous ones in words", async () => {
    const { clientId, reportId } = await draftUnder(GENERIC_XSD, "Human values");
    await setReportFields({
      clientId,
      reportId,
      actor: officer,
      fields: {
        [`${customer(0)}.birthdate`]: "14/03/1985",
        [`${customer(1)}.birthdate`]: "03/14/1985",
        "transactions[0].date_transaction": "26.11.2026 09:01",
        "transactions[1].date_transaction": "2026-11-26T09:05",
        "transactions[0].amount_local": "1,950,000.00",
        "transactions[1].amount_local": "1 975 000",
      },
    });
    const content = (await stored(clientId, reportId)).content as TContent;
    expect(getAtPath(content, `${customer(0)}.birthdate`)).toBe("1985-03-14T00:00:00");
    expect(getAtPath(content, `${customer(1)}.birthdate`)).toBe("1985-03-14T00:00:00");
    expect(getAtPath(content, "transactions[0].date_transaction")).toBe("2026-11-26T09:01:00");
    expect(getAtPath(content, "transactions[1].date_transaction")).toBe("2026-11-26T09:05:00");
    expect(getAtPath(content, "transactions[0].amount_local")).toBe("1950000.00");
    expect(getAtPath(content, "transactions[1].amount_local")).toBe("1975000");

    // The editor shows a birth date as a date, in a date input; a transaction's date with its time.
    const { groups } = await verdictOf(clientId, reportId);
    const fields = groups.flatMap((g) => g.fields);
    const birth = fields.find((f) => f.paths.includes(`${customer(0)}.birthdate`))!;
    expect(birth).toMatchObject({ value: "1985-03-14", input: { kind: "date" } });
    const when = fields.find((f) => f.paths.includes("transactions[0].date_transaction"))!;
    expect(when).toMatchObject({ value: "2026-11-26T09:01:00", input: { kind: "datetime" } });

    await expect(
      setReportFields({
        clientId,
        reportId,
        actor: officer,
        fields: {
          [`${customer(0)}.birthdate`]: "03/04/1985",
          "transactions[0].amount_local": "1.950.000,00",
          [`${customer(0)}.nationality1`]: "Kenya",
        },
      }),
    ).rejects.toMatchObject({
      details: [
        `/${customer(0)}.birthdate: Date of birth must be a date whose day and month cannot be confused: 03/04/1985 could be either; write it as year-month-day (1985-03-04) or with the month in words (4 Mar 1985)`,
        "/transactions[0].amount_local: Amount in local currency must be a number such as 1250.50 or 1,250.50 (a point before the decimals); a comma before the decimals (1.950.000,00) is not accepted",
        `/${customer(0)}.nationality1: Nationality must be a two-letter country code: did you mean KE (Kenya)?`,
      ],
    });
    expect((await stored(clientId, reportId)).content).toEqual(content);
  });
});
