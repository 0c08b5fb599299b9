import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { incompletePaths, type TContent, type TContentNode } from "@/lib/reports/content";
import type { TReportProfile } from "@/lib/reports/schemas";

// goAML 5.0.1 XML from report content, and its validation against the goAML XSD before anyone downloads it.

type TField = { key: string; type?: string; item?: string; flat?: boolean };
const f = (key: string, type?: string): TField => ({ key, type });
const list = (key: string, item: string, type?: string): TField => ({ key, item, type });

const PERSON_TAIL: TField[] = [
  f("ssn"),
  f("passport_number"),
  f("passport_country"),
  f("id_number"),
  f("nationality1"),
  f("nationality2"),
  f("nationality3"),
  f("residence"),
  list("phones", "phone", "phone"),
  list("addresses", "address", "address"),
  f("email"),
  f("occupation"),
  f("employer_name"),
  f("tax_number"),
  f("tax_reg_number"),
  f("source_of_wealth"),
  f("comments"),
];
const PERSON: TField[] = [
  f("gender"),
  f("title"),
  f("first_name"),
  f("middle_name"),
  f("prefix"),
  f("last_name"),
  f("birthdate"),
  f("birth_place"),
  f("mothers_name"),
  f("alias"),
  ...PERSON_TAIL,
];

const side = (dir: "from" | "to", mine: boolean): TField[] => [
  f(`${dir}_funds_code`),
  f(`${dir}_funds_comment`),
  f(`${dir}_foreign_currency`, "foreign_currency"),
  f(`${dir}_account`, "account"),
  f(`${dir}_person`, mine ? "person" : "person"),
  f(`${dir}_entity`, "entity"),
  f(`${dir}_country`),
];

// Element order of each goAML type used by the content (the XSD is a sequence: order matters).
const TYPES: Record<string, TField[]> = {
  report: [
    f("rentity_id"),
    f("rentity_branch"),
    f("submission_code"),
    f("report_code"),
    f("entity_reference"),
    f("fiu_ref_number"),
    f("submission_date"),
    f("currency_code_local"),
    f("reporting_person", "person"),
    f("location", "address"),
    f("reason"),
    f("action"),
    { key: "transactions", item: "transaction", type: "transaction", flat: true },
    f("activity", "activity"),
    list("report_indicators", "indicator"),
  ],
  transaction: [
    f("transactionnumber"),
    f("internal_ref_number"),
    f("transaction_location"),
    f("transaction_description"),
    f("date_transaction"),
    f("transmode_code"),
    f("transmode_comment"),
    f("amount_local"),
    f("t_from_my_client", "from_my_client"),
    f("t_from", "from"),
    f("t_to_my_client", "to_my_client"),
    f("t_to", "to"),
    f("comments"),
  ],
  from_my_client: side("from", true),
  from: side("from", false),
  to_my_client: side("to", true),
  to: side("to", false),
  person: PERSON,
  entity: [
    f("name"),
    f("commercial_name"),
    f("incorporation_legal_form"),
    f("incorporation_number"),
    f("business"),
    list("phones", "phone", "phone"),
    list("addresses", "address", "address"),
    f("email"),
    f("url"),
    f("incorporation_state"),
    f("incorporation_country_code"),
    f("tax_number"),
    f("comments"),
  ],
  account: [
    f("institution_name"),
    f("institution_code"),
    f("swift"),
    f("non_bank_institution"),
    f("branch"),
    f("account"),
    f("currency_code"),
    f("account_name"),
    f("iban"),
    f("client_number"),
    { key: "signatory", item: "signatory", type: "signatory", flat: true },
    f("comments"),
  ],
  signatory: [f("is_primary"), f("t_person", "person"), f("role")],
  address: [
    f("address_type"),
    f("address"),
    f("town"),
    f("city"),
    f("zip"),
    f("country_code"),
    f("state"),
    f("comments"),
  ],
  phone: [
    f("tph_contact_type"),
    f("tph_communication_type"),
    f("tph_country_prefix"),
    f("tph_number"),
    f("tph_extension"),
    f("comments"),
  ],
  foreign_currency: [f("foreign_currency_code"), f("foreign_amount"), f("foreign_exchange_rate")],
  activity: [list("report_parties", "report_party", "report_party")],
  report_party: [
    f("person", "person"),
    f("person_my_client", "person"),
    f("account", "account"),
    f("entity", "entity"),
    f("country"),
    f("is_suspected"),
    f("significance"),
    f("reason"),
    f("comments"),
  ],
};

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function leafText(value: TContentNode): string {
  if (typeof value === "boolean") return value ? "true" : "false";
  return escapeXml(String(value));
}

function render(
  name: string,
  value: TContentNode | undefined,
  type: string | undefined,
  indent: string,
): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "object") return `${indent}<${name}>${leafText(value)}</${name}>\n`;
  if (Array.isArray(value)) return "";
  return `${indent}<${name}>\n${renderFields(value, TYPES[type ?? ""] ?? [], `${indent}  `)}${indent}</${name}>\n`;
}

function renderFields(
  node: Record<string, TContentNode | undefined>,
  fields: TField[],
  indent: string,
): string {
  let out = "";
  for (const field of fields) {
    const value = node[field.key];
    if (value === undefined || value === null) continue;
    if (field.item && Array.isArray(value)) {
      const items = value
        .map((item) => render(field.item!, item, field.type, field.flat ? indent : `${indent}  `))
        .join("");
      out += field.flat ? items : `${indent}<${field.key}>\n${items}${indent}</${field.key}>\n`;
    } else {
      out += render(field.key, value, field.type, indent);
    }
  }
  return out;
}

/** goAML XML of the content. Callers check incompletePaths first: null (missing) values are left out. */
export function toGoamlXml(content: TContent): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<report>\n${renderFields(content, TYPES.report!, "  ")}</report>\n`;
}

// ---------------------------------------------------------------- validation

export const GOAML_XSD_PATH = path.join(process.cwd(), "lib", "reports", "goaml", "goAMLSchema-5.0.1.xsd");

function cacheFile(name: string, text: string): string {
  const dir = path.join(tmpdir(), "rss-goaml");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${createHash("sha256").update(text).digest("hex").slice(0, 24)}-${name}`);
  if (!existsSync(file)) writeFileSync(file, text);
  return file;
}

/**
 * The XSD a client's reports are validated against: the FIU's own schema when the reporting profile names one
 * (inline or a path), otherwise the generic goAML 5.0.1 schema. The generic schema leaves every FIU lookup as a
 * placeholder ("-"); its indicator lookup is filled with the profile's indicator code list, which is the FIU's.
 */
export function schemaFileFor(profile: TReportProfile): string {
  if (profile.goamlSchemaXsd) return cacheFile("fiu.xsd", profile.goamlSchemaXsd);
  if (profile.goamlSchemaPath) return path.resolve(profile.goamlSchemaPath);
  const codes = profile.indicatorCodes ?? [];
  if (codes.length === 0) return GOAML_XSD_PATH;
  const generic = readFileSync(GOAML_XSD_PATH, "utf8");
  const enumeration = [
    '<xs:enumeration value="-" />',
    ...codes.map((c) => `<xs:enumeration value="${escapeXml(c)}" />`),
  ].join("");
  const patched = generic.replace(
    /(<xs:simpleType name="report_indicator_type">\s*<xs:restriction base="xs:string">)[\s\S]*?(<\/xs:restriction>)/,
    `$1${enumeration}$2`,
  );
  return cacheFile("goaml-indicators.xsd", patched);
}

export type TValidation = { valid: boolean; errors: string[] };

/**
 * Validates XML against an XSD in-process with libxml2 compiled to WebAssembly (xmllint-wasm, run in a
 * worker thread): no native binary is needed, so air-gapped installs validate exactly like CI.
 */
export async function validateXml(xml: string, xsdFile: string): Promise<TValidation> {
  const { validateXML } = await import("xmllint-wasm");
  const result = await validateXML({
    xml: [{ fileName: "report.xml", contents: xml }],
    schema: [{ fileName: path.basename(xsdFile), contents: readFileSync(xsdFile, "utf8") }],
    initialMemoryPages: 512,
  });
  return {
    valid: result.valid,
    errors: result.errors.map((e) => e.message.trim()).filter((m) => m && !/fails to validate/.test(m)),
  };
}

export type TGoamlExport =
  | { ok: true; xml: string }
  | { ok: false; reason: "incomplete"; missing: string[] }
  | { ok: false; reason: "invalid"; errors: string[]; xml: string };

/** The XML of a report, offered only when nothing is missing and it validates against the client's goAML schema. */
export async function exportGoamlXml(content: TContent, profile: TReportProfile): Promise<TGoamlExport> {
  const missing = incompletePaths(content);
  if (missing.length > 0) return { ok: false, reason: "incomplete", missing };
  const xml = toGoamlXml(content);
  const result = await validateXml(xml, schemaFileFor(profile));
  return result.valid ? { ok: true, xml } : { ok: false, reason: "invalid", errors: result.errors, xml };
}

function orderNode(node: TContentNode | undefined, type: string | undefined): TContentNode | undefined {
  if (node === null || node === undefined || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map((item) => orderNode(item, type) ?? null);
  const fields = TYPES[type ?? ""] ?? [];
  const out: Record<string, TContentNode | undefined> = {};
  for (const field of fields) if (field.key in node) out[field.key] = orderNode(node[field.key], field.type);
  for (const [key, value] of Object.entries(node)) if (!(key in out)) out[key] = value;
  return out;
}

/** The content with keys in goAML element order (jsonb keeps its own order), for display. */
export function orderContent(content: TContent): TContent {
  return orderNode(content, "report") as TContent;
}
