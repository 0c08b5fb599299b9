import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { resetGoamlSchema, setGoamlSchema } from "@/lib/admin/goaml-schema";
import { getClientSettings, updateClientSettings } from "@/lib/admin/settings";
import type { TClientContext } from "@/lib/clients/client-context";
import type { TSessionUser } from "@/lib/auth/session";
import { prisma } from "@/lib/db";
import type { TContent } from "@/lib/reports/content";
import { createReport } from "@/lib/reports/create-report";
import {
  DEMO_REPORTING_PROFILE,
  DEMO_SCHEMA_NAME,
  demoFiuSchema,
  seedDemoReports,
} from "@/lib/reports/demo-reports";
import type { TEditorField } from "@/lib/reports/editor";
import { activeSchema, exportGoamlXml, GENERIC_SCHEMA_NAME } from "@/lib/reports/goaml-xml";
import { indicatorCodes } from "@/lib/reports/indicators";
import { reportVerdict } from "@/lib/reports/report-verdict";
import { readReportProfile, ZCreateReport } from "@/lib/reports/schemas";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { setReportIndicators } from "@/lib/reports/set-report-indicators";
import { FOUR_EYES_MESSAGE, transitionReport } from "@/lib/reports/transition-report";
import { createTestClient } from "@/tests/factories";
import {
  enumerationVariant,
  GENERIC_XSD,
  NATIONAL_INDICATORS,
  reorderedVariant,
  requiredVariant,
} from "@/tests/goaml-variants";

let clientId: string;
const officer = { type: "dashboard" as const, id: "officer-1" };
const second = { type: "dashboard" as const, id: "officer-2" };
const dir = mkdtempSync(path.join(tmpdir(), "goaml-test-"));
const customer = (i: number) => `transactions[${i}].t_from_my_client.from_person`;

/** The same check a regulator's tooling does: libxml2's xmllint against an XSD file. */
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

const report = (cid: string, id: string) =>
  prisma.report.findUniqueOrThrow({ where: { clientId_id: { clientId: cid, id } } });
const profileOf = async (cid: string) =>
  readReportProfile((await prisma.client.findUniqueOrThrow({ where: { id: cid } })).reportingProfile);

async function verdictOf(cid: string, id: string) {
  const row = await report(cid, id);
  return reportVerdict(row.content as TContent, activeSchema(await profileOf(cid)));
}

/** What an officer would type into a field, from what the editor says the field takes. */
function sample(field: TEditorField): string {
  if (field.input.kind === "select") {
    const values = field.input.options.map((o) => o.value).filter((v) => v !== "-");
    return values.find((v) => v === "KE") ?? values[0]!;
  }
  const hint = field.input.placeholder;
  if (/date/.test(hint)) return "1985-06-15";
  if (/whole number/.test(hint)) return "7";
  if (/number/.test(hint)) return "1250.50";
  return field.label.includes("Occupation") ? "Market trader" : "Nairobi County";
}

/** Fixes everything the verdict lists through the editor, one grouped field at a time, like an officer. */
async function complete(cid: string, id: string) {
  for (let round = 0; round < 5; round++) {
    const verdict = await verdictOf(cid, id);
    if (verdict.valid) return verdict;
    const fields = new Map<string, TEditorField>();
    for (const item of verdict.items)
      for (const g of verdict.groups)
        for (const f of g.fields) if (f.paths.includes(item.path)) fields.set(f.id, f);
    if (verdict.items.some((i) => i.path.startsWith("report_indicators"))) {
      const codes = indicatorCodes(activeSchema(await profileOf(cid)).schema).map((c) => c.value);
      await setReportIndicators({
        clientId: cid,
        reportId: id,
        indicators: [codes[0] ?? "-"],
        actor: officer,
      });
    }
    const values: Record<string, string> = {};
    for (const f of fields.values()) for (const p of f.paths) values[p] = sample(f);
    if (Object.keys(values).length)
      await setReportFields({ clientId: cid, reportId: id, fields: values, actor: officer });
  }
  return verdictOf(cid, id);
}

beforeAll(async () => {
  ({ clientId } = await createTestClient({ features: ["reporting"] }));
  await seedDemoReports(clientId);
});

describe("the demo STR against the demo FIU schema", () => {
  it("is populated from profile, template, user and transactions, missing only KYC facts", async () => {
    const row = await report(clientId, "demo-report-1");
    expect(row.incomplete).toEqual([
      `${customer(0)}.birthdate`,
      `${customer(0)}.occupation`,
      `${customer(1)}.birthdate`,
      `${customer(1)}.occupation`,
    ]);
    expect(row.content).toMatchObject({
      rentity_id: "1042",
      report_code: "STR",
      report_indicators: ["STR-STRUCT"],
    });
    const verdict = await verdictOf(clientId, "demo-report-1");
    expect(verdict.schemaName).toBe(DEMO_SCHEMA_NAME);
    expect(verdict.valid).toBe(false);
    expect(verdict.items.map((i) => i.text)).toEqual([
      "Daniel Kamau · Date of birth is missing (in 2 places)",
      "Daniel Kamau · Occupation is missing (in 2 places)",
    ]);
  });

  it("groups the customer of both transactions into one set of fields, labelled in words", async () => {
    const { groups } = await verdictOf(clientId, "demo-report-1");
    const daniel = groups.filter((g) => g.title === "Daniel Kamau");
    expect(daniel).toHaveLength(1);
    expect(daniel[0]!.where).toEqual(["Transaction 1 · sender", "Transaction 2 · sender"]);
    const birth = daniel[0]!.fields.find((f) => f.label === "Date of birth")!;
    expect(birth).toMatchObject({
      missing: true,
      paths: [`${customer(0)}.birthdate`, `${customer(1)}.birthdate`],
    });
    const nationality = daniel[0]!.fields.find((f) => f.label === "Nationality")!;
    expect(nationality).toMatchObject({ value: "KE", missing: false, input: { kind: "select" } });
    expect(groups.flatMap((g) => g.fields.map((f) => f.label)).some((l) => /[_[\]]/.test(l))).toBe(false);
    // The recipient's account differs per transaction; its holder is one person.
    expect(groups.filter((g) => g.title === "Peter Otieno")).toHaveLength(1);
  });

  it("refuses wrongly typed values with words and stores nothing", async () => {
    const before = await report(clientId, "demo-report-1");
    const audits = await prisma.reportAuditEntry.count({ where: { clientId, reportId: "demo-report-1" } });
    const attempt = setReportFields({
      clientId,
      reportId: "demo-report-1",
      actor: officer,
      fields: {
        [`${customer(0)}.nationality1`]: "United Kingdom",
        "transactions[0].amount_local": "abc",
        [`${customer(0)}.occupation`]: "Trader",
      },
    });
    await expect(attempt).rejects.toMatchObject({
      details: [
        `/${customer(0)}.nationality1: Nationality must be a two-letter country code: did you mean GB (United Kingdom)?`,
        "/transactions[0].amount_local: Amount in local currency must be a number such as 1250.50 or 1,250.50 (a point before the decimals)",
      ],
    });
    expect((await report(clientId, "demo-report-1")).content).toEqual(before.content);
    expect(await prisma.reportAuditEntry.count({ where: { clientId, reportId: "demo-report-1" } })).toBe(
      audits,
    );
  });

  it("accepts corrections of filled fields, refuses indicators outside the schema, and validates with xmllint", async () => {
    await setReportFields({
      clientId,
      reportId: "demo-report-1",
      actor: officer,
      fields: { [`${customer(0)}.nationality1`]: "gb", [`${customer(1)}.nationality1`]: "gb" },
    });
    expect((await report(clientId, "demo-report-1")).content).toMatchObject({
      transactions: [
        { t_from_my_client: { from_person: { nationality1: "GB" } } },
        { t_from_my_client: { from_person: { nationality1: "GB" } } },
      ],
    });
    await expect(
      setReportIndicators({ clientId, reportId: "demo-report-1", indicators: ["FREE-1"], actor: officer }),
    ).rejects.toMatchObject({
      details: [`/indicators: FREE-1 is not an indicator code of ${DEMO_SCHEMA_NAME}`],
    });

    await expect(
      transitionReport({ clientId, reportId: "demo-report-1", to: "pending_review", actor: officer }),
    ).rejects.toThrow(
      /does not validate against Demo FIU goAML 5\.0\.1: Daniel Kamau · Date of birth is missing/,
    );

    const verdict = await complete(clientId, "demo-report-1");
    expect(verdict).toMatchObject({ valid: true, items: [], errors: [] });
    const result = await exportGoamlXml(
      (await report(clientId, "demo-report-1")).content as TContent,
      await profileOf(clientId),
    );
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(xmllint(result.xml, demoFiuSchema())).toEqual({ ok: true, output: "" });
    // The demo's lookups are the generic schema's; only its indicator list is the demo FIU's own.
    const generic = result.xml.replace(/<indicator>[^<]+<\/indicator>/g, "<indicator>-</indicator>");
    expect(xmllint(generic, GENERIC_XSD)).toEqual({ ok: true, output: "" });
  });

  it("records a refused filing by the preparer, then files with a second officer", async () => {
    await transitionReport({ clientId, reportId: "demo-report-1", to: "pending_review", actor: officer });
    await expect(
      transitionReport({
        clientId,
        reportId: "demo-report-1",
        to: "submitted",
        actor: officer,
        fiuReferenceNumber: "X",
      }),
    ).rejects.toThrow(FOUR_EYES_MESSAGE);
    const refused = await prisma.reportAuditEntry.findFirstOrThrow({
      where: { clientId, reportId: "demo-report-1", action: "filing_refused" },
    });
    expect(refused).toMatchObject({ actorId: "officer-1", changes: { reason: FOUR_EYES_MESSAGE } });
    expect((await report(clientId, "demo-report-1")).status).toBe("pending_review");
    await transitionReport({
      clientId,
      reportId: "demo-report-1",
      to: "submitted",
      actor: second,
      fiuReferenceNumber: "FIU-1",
    });
    expect((await report(clientId, "demo-report-1")).status).toBe("submitted");
  });
});

describe("complete reports for each FIU schema variant, checked by xmllint --schema", () => {
  const variants: [string, string][] = [
    ["generic 5.0.1", GENERIC_XSD],
    ["required elements added", requiredVariant()],
    ["lookups replaced", enumerationVariant()],
    ["elements reordered", reorderedVariant()],
  ];

  for (const [name, xsd] of variants)
    it(`produces a valid file against the ${name} schema`, async () => {
      const { clientId: cid } = await createTestClient({ features: ["reporting"], name: `variant ${name}` });
      await seedDemoReports(cid);
      const generic = xsd === GENERIC_XSD;
      await prisma.client.update({
        where: { id: cid },
        data: {
          reportingProfile: generic
            ? DEMO_REPORTING_PROFILE
            : { ...DEMO_REPORTING_PROFILE, goamlSchemaXsd: xsd, goamlSchemaName: `FIU (${name})` },
        },
      });
      const row = await prisma.client.findUniqueOrThrow({ where: { id: cid } });
      const client: TClientContext = {
        id: cid,
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
      if (name === "required elements added")
        expect(created.incomplete).toEqual(
          expect.arrayContaining(["location.state", `${customer(0)}.customer_risk_rating`]),
        );
      const verdict = await complete(cid, created.reportId);
      expect(verdict.schemaName).toBe(generic ? GENERIC_SCHEMA_NAME : `FIU (${name})`);
      expect(verdict).toMatchObject({ valid: true, items: [], errors: [] });
      const content = (await report(cid, created.reportId)).content as TContent;
      const result = await exportGoamlXml(content, await profileOf(cid));
      if (!result.ok) throw new Error(JSON.stringify(result));
      expect(xmllint(result.xml, xsd)).toEqual({ ok: true, output: "" });
      if (name === "lookups replaced") {
        expect(result.xml).toContain(`<indicator>${NATIONAL_INDICATORS[0]![0]}</indicator>`);
        expect(result.xml).toMatch(/<tph_contact_type>(PRV|BUS)<\/tph_contact_type>/);
        expect(result.xml).toMatch(/<transmode_code>(CASH|WIRE|CARD)<\/transmode_code>/);
      }
      if (name === "required elements added") expect(result.xml).toContain("<customer_risk_rating>");
      if (name === "elements reordered")
        expect(result.xml.indexOf("<date_transaction>")).toBeLessThan(
          result.xml.indexOf("<transaction_description>"),
        );
    });
});

describe("the FIU schema in Settings", () => {
  it("takes an uploaded XSD, offers its lookups, refuses what is not a goAML schema, and goes back to generic", async () => {
    const { clientId: cid } = await createTestClient({ features: ["reporting"], name: "schema upload" });
    const admin: TSessionUser = {
      id: "admin-1",
      clientId: cid,
      email: "a@x.test",
      name: null,
      role: "admin",
    };
    // Only admins reach it: the route's permission (tests/integration/dashboard-permissions.test.ts).

    const uploaded = await setGoamlSchema(admin, { name: "national-goaml.xsd", xsd: enumerationVariant() });
    expect(uploaded).toMatchObject({ name: "national-goaml.xsd", generic: false, version: "5.0.1" });
    expect(uploaded.lookups.contactType).toEqual([
      { value: "PRV", label: "Private" },
      { value: "BUS", label: "Business" },
    ]);
    expect(uploaded.indicators.map((i) => i.value)).toEqual(NATIONAL_INDICATORS.map(([v]) => v));
    const settings = await getClientSettings(admin);
    expect(settings.goaml.name).toBe("national-goaml.xsd");
    expect(settings.reportingProfile).not.toHaveProperty("goamlSchemaXsd");
    expect(
      await prisma.auditLog.count({ where: { clientId: cid, action: "client.goaml_schema_changed" } }),
    ).toBe(1);

    // A profile save keeps the uploaded schema and takes only its codes: a code outside it is not saved, and
    // names its field; the rest of the profile is.
    const partial = await updateClientSettings(admin, {
      reportingProfile: { entityId: "9", codes: { contactType: "1" } },
    });
    expect(partial.notSaved).toEqual([
      "/reportingProfile/codes/contactType: Contact type (phones, addresses): 1 is not a code of national-goaml.xsd; not saved",
    ]);
    expect(await profileOf(cid)).toMatchObject({ entityId: "9" });
    expect((await profileOf(cid)).codes?.contactType).toBeUndefined();
    await updateClientSettings(admin, { reportingProfile: { entityId: "9", codes: { contactType: "PRV" } } });
    expect((await activeSchema(await profileOf(cid))).name).toBe("national-goaml.xsd");

    for (const xsd of [
      "<html><body>not a schema</body></html>",
      "<xs:schema",
      GENERIC_XSD.replace('name="report"', 'name="rapport"'),
    ])
      await expect(setGoamlSchema(admin, { name: "bad.xsd", xsd })).rejects.toMatchObject({
        details: [expect.stringMatching(/^\/xsd: Not a goAML schema/)],
      });
    const broken = GENERIC_XSD.replace('type="country_type"', 'type="no_such_type"');
    await expect(setGoamlSchema(admin, { name: "broken.xsd", xsd: broken })).rejects.toMatchObject({
      details: [expect.stringMatching(/^\/xsd: libxml2 cannot compile this schema/)],
    });
    expect((await activeSchema(await profileOf(cid))).name).toBe("national-goaml.xsd");

    await expect(resetGoamlSchema(admin)).resolves.toMatchObject({
      name: GENERIC_SCHEMA_NAME,
      generic: true,
    });
  });
});
