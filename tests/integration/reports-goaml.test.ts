import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import type { TContent } from "@/lib/reports/content";
import { DEMO_REPORTING_PROFILE, seedDemoReports } from "@/lib/reports/demo-reports";
import { exportGoamlXml, GOAML_XSD_PATH, schemaFileFor } from "@/lib/reports/goaml-xml";
import { readReportProfile } from "@/lib/reports/schemas";
import { setReportFields } from "@/lib/reports/set-report-fields";
import { setReportIndicators } from "@/lib/reports/set-report-indicators";
import { createTestClient } from "@/tests/factories";

let clientId: string;
const officer = { type: "dashboard" as const, id: "officer-1" };
const dir = mkdtempSync(path.join(tmpdir(), "goaml-test-"));

/** The same check a regulator's tooling does: libxml2's xmllint against an XSD file. */
function xmllint(xml: string, xsd: string): { ok: boolean; output: string } {
  const file = path.join(dir, `r-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  try {
    execFileSync("xmllint", ["--noout", "--schema", xsd, file], { stdio: "pipe" });
    return { ok: true, output: "" };
  } catch (err) {
    return { ok: false, output: String((err as { stderr?: Buffer }).stderr ?? err) };
  }
}

async function report(id: string) {
  return prisma.report.findUniqueOrThrow({ where: { clientId_id: { clientId, id } } });
}

const MISSING = [
  "transactions[0].t_from_my_client.from_person.birthdate",
  "transactions[0].t_from_my_client.from_person.occupation",
  "transactions[1].t_from_my_client.from_person.birthdate",
  "transactions[1].t_from_my_client.from_person.occupation",
];

beforeAll(async () => {
  ({ clientId } = await createTestClient({ features: ["reporting"] }));
  await seedDemoReports(clientId);
});

describe("goAML XML", () => {
  it("populates the demo STR from the profile, template, user and transactions, missing only KYC facts", async () => {
    const row = await report("demo-report-1");
    expect(row.incomplete).toEqual(MISSING);
    const content = row.content as any;
    expect(content).toMatchObject({
      rentity_id: "1042",
      report_code: "STR",
      entity_reference: "CASE-2026-001",
      currency_code_local: "KES",
      reporting_person: { first_name: "Olga", last_name: "Officer" },
      reason: "Repeated payouts just below the reporting threshold within a short period.",
      report_indicators: ["STR-STRUCT"],
    });
    expect(content.transactions[0].t_from_my_client.from_person).toMatchObject({
      ssn: "29384756",
      nationality1: "KE",
      residence: "KE",
    });
    expect(content.transactions[0].t_to.to_account).toMatchObject({
      institution_name: "Harbour Bank",
      account: "001234560",
    });
    expect(content.transactions[0].t_to.to_account.signatory[0].t_person).toMatchObject({
      first_name: "Peter",
      last_name: "Otieno",
    });
  });

  it("refuses an incomplete report with the missing paths", async () => {
    const row = await report("demo-report-1");
    const profile = readReportProfile(
      (await prisma.client.findUniqueOrThrow({ where: { id: clientId } })).reportingProfile,
    );
    const result = await exportGoamlXml(row.content as TContent, profile);
    expect(result).toEqual({ ok: false, reason: "incomplete", missing: MISSING });
  });

  it("renders a completed STR that xmllint accepts against the goAML 5.0.1 XSD", async () => {
    const fields = Object.fromEntries(
      MISSING.map((p) => [p, p.endsWith("birthdate") ? "1985-06-15T00:00:00" : "Trader"]),
    );
    const { incomplete } = await setReportFields({
      clientId,
      reportId: "demo-report-1",
      fields,
      actor: officer,
    });
    expect(incomplete).toEqual([]);
    const row = await report("demo-report-1");
    const profile = readReportProfile(
      (await prisma.client.findUniqueOrThrow({ where: { id: clientId } })).reportingProfile,
    );
    const result = await exportGoamlXml(row.content as TContent, profile);
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.xml).toContain("<report_code>STR</report_code>");
    expect(result.xml).toContain("<indicator>STR-STRUCT</indicator>");
    expect(result.xml).toContain("<birthdate>1985-06-15T00:00:00</birthdate>");

    // The client's schema: the generic XSD whose indicator lookup holds the client's code list.
    const schema = schemaFileFor(profile);
    expect(readFileSync(schema, "utf8")).toContain('<xs:enumeration value="STR-STRUCT" />');
    expect(xmllint(result.xml, schema)).toEqual({ ok: true, output: "" });
    // The shipped generic XSD, unmodified: only its placeholder "-" indicator is known to it.
    expect(xmllint(result.xml, GOAML_XSD_PATH).output).toMatch(/indicator.*STR-STRUCT/);
    const generic = result.xml.replace("<indicator>STR-STRUCT</indicator>", "<indicator>-</indicator>");
    expect(xmllint(generic, GOAML_XSD_PATH)).toEqual({ ok: true, output: "" });
  });

  it("shows the XSD errors of content that is complete but invalid", async () => {
    await setReportFields({
      clientId,
      reportId: "demo-report-1",
      fields: { "transactions[1].t_from_my_client.from_person.birthdate": "15/06/1985" },
      actor: officer,
    });
    const row = await report("demo-report-1");
    const result = await exportGoamlXml(row.content as TContent, DEMO_REPORTING_PROFILE);
    expect(result.ok).toBe(false);
    if (result.ok || result.reason !== "invalid") throw new Error("expected invalid");
    expect(result.errors.join("\n")).toMatch(/birthdate/);
    await setReportFields({
      clientId,
      reportId: "demo-report-1",
      fields: { "transactions[1].t_from_my_client.from_person.birthdate": "1985-06-15T00:00:00" },
      actor: officer,
    });
  });

  it("validates against a client's own FIU schema when the profile carries one", async () => {
    const fiuXsd = readFileSync(GOAML_XSD_PATH, "utf8").replace(
      /(<xs:simpleType name="report_indicator_type">\s*<xs:restriction base="xs:string">)[\s\S]*?(<\/xs:restriction>)/,
      '$1<xs:enumeration value="FIU-7" />$2',
    );
    const profile = { ...DEMO_REPORTING_PROFILE, goamlSchemaXsd: fiuXsd };
    let row = await report("demo-report-1");
    const refused = await exportGoamlXml(row.content as TContent, profile);
    expect(refused.ok).toBe(false);
    await setReportIndicators({ clientId, reportId: "demo-report-1", indicators: ["FIU-7"], actor: officer });
    row = await report("demo-report-1");
    const accepted = await exportGoamlXml(row.content as TContent, profile);
    expect(accepted.ok).toBe(true);
    const file = path.join(dir, "fiu.xsd");
    writeFileSync(file, fiuXsd);
    expect(
      (await exportGoamlXml(row.content as TContent, { ...DEMO_REPORTING_PROFILE, goamlSchemaPath: file }))
        .ok,
    ).toBe(true);
  });

  it("reports without transactions use goAML's activity form", async () => {
    const row = await report("demo-report-2");
    const content = row.content as any;
    expect(content.transactions).toBeUndefined();
    expect(content.activity.report_parties[0].person_my_client.first_name).toBe("Grace");
    expect(row.indicators).toEqual(["STR-MULE", "STR-RAPID"]);
  });
});
