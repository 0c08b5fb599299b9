import type { TContentNode } from "@/lib/reports/content";
import type { TElementDecl, TSimpleType } from "@/lib/reports/goaml/schema";

// A value typed by an officer, checked against the schema type of its element before anything is stored, with
// the problem said in words. Values are normalised the way goAML writes them (dates as sql_date, booleans).

const LABELS: Record<string, string> = {
  rentity_id: "Reporting entity id",
  rentity_branch: "Branch",
  submission_code: "Submission code",
  report_code: "Report type code",
  entity_reference: "Entity reference",
  submission_date: "Submission date",
  currency_code_local: "Local currency",
  first_name: "First name",
  last_name: "Last name",
  middle_name: "Middle name",
  birthdate: "Date of birth",
  birth_place: "Place of birth",
  ssn: "National ID number",
  id_number: "ID number",
  passport_number: "Passport number",
  passport_country: "Passport country",
  nationality1: "Nationality",
  nationality2: "Second nationality",
  residence: "Country of residence",
  occupation: "Occupation",
  employer_name: "Employer",
  tax_number: "Tax number",
  source_of_wealth: "Source of wealth",
  email: "Email",
  address_type: "Address type",
  country_code: "Country",
  zip: "Postal code",
  tph_contact_type: "Phone contact type",
  tph_communication_type: "Phone type",
  tph_country_prefix: "Phone country prefix",
  tph_number: "Phone number",
  transactionnumber: "Transaction number",
  internal_ref_number: "Internal reference",
  transaction_location: "Transaction location",
  transaction_description: "Description",
  date_transaction: "Transaction date",
  transmode_code: "Transmission mode",
  transmode_comment: "Transmission mode comment",
  amount_local: "Amount in local currency",
  from_funds_code: "Source of funds",
  to_funds_code: "Destination of funds",
  from_country: "Country of origin",
  to_country: "Destination country",
  foreign_currency_code: "Foreign currency",
  foreign_amount: "Foreign amount",
  foreign_exchange_rate: "Exchange rate",
  institution_name: "Institution",
  institution_code: "Institution code",
  non_bank_institution: "Non-bank institution",
  account: "Account number",
  currency_code: "Account currency",
  account_name: "Account name",
  iban: "IBAN",
  swift: "SWIFT/BIC",
  is_primary: "Primary signatory",
  name: "Name",
  commercial_name: "Trading name",
  incorporation_number: "Registration number",
  incorporation_country_code: "Country of incorporation",
  business: "Business",
  indicator: "Indicator",
};

/** Words for an element name: `nationality1` → "Nationality", `tph_extension` → "Extension". */
export function fieldLabel(element: string): string {
  const known = LABELS[element];
  if (known) return known;
  const words = element.replace(/^(tph|t|from|to)_/, "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const NUMERIC = new Set([
  "decimal",
  "double",
  "float",
  "int",
  "integer",
  "long",
  "short",
  "byte",
  "nonNegativeInteger",
  "positiveInteger",
  "unsignedInt",
  "unsignedLong",
]);
const INTEGER = new Set([...NUMERIC].filter((t) => !["decimal", "double", "float"].includes(t)));

function example(type: TSimpleType): string {
  const codes = type.enumerations.map((e) => e.value).filter((v) => v !== "-");
  if (/country/.test(type.name ?? "")) return codes.includes("GB") ? "GB" : (codes[0] ?? "GB");
  if (/currency/.test(type.name ?? "")) return codes.includes("EUR") ? "EUR" : (codes[0] ?? "EUR");
  return codes[0] ?? type.enumerations[0]?.value ?? "";
}

/** What a valid value looks like, in words (also the editor's placeholder). */
export function describeType(type: TSimpleType): string {
  if (type.enumerations.length) {
    if (/country/.test(type.name ?? "")) return `a country code, for example ${example(type)}`;
    if (/currency/.test(type.name ?? "")) return `a currency code, for example ${example(type)}`;
    return `one of the schema's codes, for example ${example(type)}`;
  }
  if (type.base === "dateTime") return "a date such as 1985-06-15";
  if (type.base === "date") return "a date such as 1985-06-15";
  if (type.base === "boolean") return "yes or no (true or false)";
  if (INTEGER.has(type.base)) return "a whole number, for example 1042";
  if (NUMERIC.has(type.base)) return "a number such as 1250.50 (digits, one decimal point)";
  const { length, minLength, maxLength } = type.facets;
  if (length !== undefined) return `exactly ${length} characters`;
  if (maxLength !== undefined && (minLength ?? 0) > 0) return `${minLength} to ${maxLength} characters`;
  if (maxLength !== undefined) return `text of at most ${maxLength} characters`;
  return "text";
}

/** An XSD regular expression as a JavaScript one (anchored; XSD patterns match the whole value). */
function xsdPattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, "u");
  } catch {
    return null;
  }
}

function compareNumbers(a: string, b: string): number {
  return Number(a) - Number(b);
}

export type TChecked = { ok: true; value: TContentNode } | { ok: false; message: string };

/** Checks (and normalises) one officer-entered value for the element `decl`, labelled `label` in messages. */
export function checkValue(decl: TElementDecl, raw: string, label = fieldLabel(decl.name)): TChecked {
  const type = decl.simple;
  const value = raw.trim();
  if (!type) return { ok: false, message: `${label} is a group of fields, not a single value` };
  const must = (what: string): TChecked => ({ ok: false, message: `${label} must be ${what}` });
  let out: string = value;

  if (type.enumerations.length) {
    const hit = type.enumerations.find((e) => e.value === value || e.value === value.toUpperCase());
    if (!hit) return must(describeType(type));
    return { ok: true, value: hit.value };
  }
  if (type.base === "dateTime" || type.base === "date") {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
    const date = m && new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4] ?? "00"}:${m[5] ?? "00"}:${m[6] ?? "00"}Z`);
    if (
      !m ||
      !date ||
      Number.isNaN(date.getTime()) ||
      date.toISOString().slice(0, 10) !== `${m[1]}-${m[2]}-${m[3]}`
    )
      return must(describeType(type));
    out = type.base === "date" ? date.toISOString().slice(0, 10) : date.toISOString().slice(0, 19);
  } else if (type.base === "boolean") {
    const yes = /^(true|1|yes|y)$/i.test(value);
    if (!yes && !/^(false|0|no|n)$/i.test(value)) return must(describeType(type));
    return { ok: true, value: yes };
  } else if (NUMERIC.has(type.base)) {
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value)) return must(describeType(type));
    if (INTEGER.has(type.base) && value.includes(".")) return must(describeType(type));
    const [whole = "", fraction = ""] = value.replace(/^[+-]/, "").split(".");
    const { totalDigits, fractionDigits } = type.facets;
    if (fractionDigits !== undefined && fraction.replace(/0+$/, "").length > fractionDigits)
      return must(`a number with at most ${fractionDigits} decimal places`);
    if (
      totalDigits !== undefined &&
      (whole.replace(/^0+/, "") + fraction.replace(/0+$/, "")).length > totalDigits
    )
      return must(`a number of at most ${totalDigits} digits`);
  }
  const f = type.facets;
  const numeric = NUMERIC.has(type.base);
  const cmp = (a: string, b: string) => (numeric ? compareNumbers(a, b) : a.localeCompare(b));
  if (f.minInclusive !== undefined && cmp(out, f.minInclusive) < 0) return must(`at least ${f.minInclusive}`);
  if (f.maxInclusive !== undefined && cmp(out, f.maxInclusive) > 0) return must(`at most ${f.maxInclusive}`);
  if (f.minExclusive !== undefined && cmp(out, f.minExclusive) <= 0)
    return must(`more than ${f.minExclusive}`);
  if (f.maxExclusive !== undefined && cmp(out, f.maxExclusive) >= 0)
    return must(`less than ${f.maxExclusive}`);
  const length = [...out].length;
  if (f.length !== undefined && length !== f.length) return must(`exactly ${f.length} characters long`);
  if (f.minLength !== undefined && length < f.minLength)
    return must(`at least ${f.minLength} character${f.minLength === 1 ? "" : "s"} long`);
  if (f.maxLength !== undefined && length > f.maxLength)
    return must(`at most ${f.maxLength} characters long`);
  for (const pattern of f.patterns ?? []) {
    const re = xsdPattern(pattern);
    if (re && !re.test(out)) return must(`in the form the FIU's schema requires (pattern ${pattern})`);
  }
  return { ok: true, value: out };
}

/** Checks a stored value (as populated or saved earlier) without normalising it. */
export function checkStored(decl: TElementDecl, value: TContentNode, label?: string): string | null {
  if (value === null || typeof value === "object") return null;
  const raw = String(value);
  const checked = checkValue(decl, raw, label);
  if (!checked.ok) return checked.message;
  // Stored dates must already be in goAML form: a normalisable value that differs is still wrong in the XML.
  if (typeof checked.value === "string" && checked.value !== raw)
    return `${label ?? fieldLabel(decl.name)} must be ${describeType(decl.simple!)}`;
  return null;
}
