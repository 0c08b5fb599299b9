import type { TContentNode } from "@/lib/reports/content";
import type { TElementDecl, TEnumValue, TSimpleType } from "@/lib/reports/goaml/schema";

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

/** Names of codes for lists that carry none in the XSD (countries, currencies), in English. */
function codeName(type: TSimpleType, code: string): string | undefined {
  const kind = /country/.test(type.name ?? "")
    ? "region"
    : /currency/.test(type.name ?? "")
      ? "currency"
      : null;
  if (!kind) return undefined;
  try {
    const name = new Intl.DisplayNames(["en"], { type: kind }).of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

export const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/**
 * The code an officer most likely meant by `typed` (a label or a country/currency name, whole or begun), or none:
 * never the first code of the list, which would only mislead.
 */
export function likelyCode(type: TSimpleType, typed: string): TEnumValue | undefined {
  const want = fold(typed);
  if (!want) return undefined;
  const named = type.enumerations.map((e) => ({ e, name: fold(e.label ?? codeName(type, e.value) ?? "") }));
  return (
    named.find(({ e }) => fold(e.value) === want)?.e ??
    named.find(({ name }) => name === want)?.e ??
    named.find(({ name }) => name && name.startsWith(want) && want.length >= 3)?.e ??
    named.find(({ name }) => name && want.length >= 4 && name.split(" ").includes(want))?.e
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** What a valid value looks like, in words (also the editor's placeholder). */
export function describeType(type: TSimpleType): string {
  if (type.enumerations.length) {
    if (/country/.test(type.name ?? "")) return "a two-letter country code";
    if (/currency/.test(type.name ?? "")) return "a three-letter currency code";
    return "one of the schema's codes";
  }
  if (type.base === "dateTime")
    return "a date such as 1985-06-15 (or 15 Jun 1985), with a time if it has one";
  if (type.base === "date") return "a date such as 1985-06-15 (or 15 Jun 1985)";
  if (type.base === "boolean") return "yes or no (true or false)";
  if (INTEGER.has(type.base)) return "a whole number, for example 1042";
  if (NUMERIC.has(type.base)) return "a number such as 1250.50 or 1,250.50 (a point before the decimals)";
  const { length, minLength, maxLength } = type.facets;
  if (length !== undefined) return `exactly ${plural(length, "character")}`;
  if (maxLength !== undefined && minLength !== undefined && minLength === maxLength)
    return `exactly ${plural(maxLength, "character")}`;
  if (maxLength !== undefined && (minLength ?? 0) > 0) return `${minLength} to ${maxLength} characters`;
  if (maxLength !== undefined) return `text of at most ${plural(maxLength, "character")}`;
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

// Values tried, in order, as the example of a pattern: the first one the pattern accepts is shown.
const PATTERN_EXAMPLES = [
  "name@example.com",
  "+254711222333",
  "254711222333",
  "0711222333",
  "KE",
  "KES",
  "GB29NWBK60161331926819",
  "HBUKGB4B",
  "AB123456",
  "ABC123",
  "123456",
  "12345",
  "1234",
  "A1",
  "A",
  "1",
];

/** The characters of `value` that no part of the pattern accepts anywhere, for "… are not allowed". */
function refusedCharacters(pattern: string, value: string): string[] {
  const parts = pattern.match(/\[(?:\\.|[^\]])*\]|\\[pP]\{[^}]*\}|\\.|\./gu) ?? [];
  const literal = pattern.replace(/\[(?:\\.|[^\]])*\]|\\[pP]\{[^}]*\}|\\.|[()|?*+{}\d,^$]/gu, "");
  const tests = parts.flatMap((part) => {
    try {
      return [new RegExp(`^${part}$`, "u")];
    } catch {
      return [];
    }
  });
  return [...new Set([...value])].filter((c) => !literal.includes(c) && !tests.some((t) => t.test(c)));
}

function describeCharacters(chars: string[]): string {
  const words = chars.map((c) => (c === " " ? "spaces" : `"${c}"`));
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** A pattern failure in words: a valid example (when one is found) and the characters refused, never the regex. */
function patternMessage(pattern: string, value: string): string {
  const re = xsdPattern(pattern);
  const sample = re ? PATTERN_EXAMPLES.find((e) => re.test(e)) : undefined;
  const refused = refusedCharacters(pattern, value);
  const form = sample ? `in the FIU's form, for example ${sample}` : "in the form the FIU's schema requires";
  return refused.length
    ? `${form}; ${describeCharacters(refused)} ${refused.length === 1 && refused[0] !== " " ? "is" : "are"} not allowed`
    : form;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

type TDateParse = { ok: true; iso: string } | { ok: false; ambiguous?: string };

/**
 * A date as people write it, to ISO (`1985-03-14` or `1985-03-14T09:01:00`): ISO itself (what date inputs send),
 * `14 Mar 1985` / `March 14, 1985`, and day/month/year with / . or - when the order is clear (14/03/1985 or
 * 03/14/1985). 03/04/1985 is refused as ambiguous rather than guessed.
 */
export function parseHumanDate(text: string): TDateParse {
  const value = text.trim().replace(/\s+/g, " ");
  const time = "(?:[T ](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.\\d+)?)?(?:Z|[+-]00:?00)?)?";
  const build = (y: number, m: number, d: number, hh?: string, mm?: string, ss?: string): TDateParse => {
    const h = Number(hh ?? 0);
    const mi = Number(mm ?? 0);
    const s = Number(ss ?? 0);
    if (m < 1 || m > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return { ok: false };
    const date = new Date(Date.UTC(y, m - 1, d, h, mi, s));
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
      return { ok: false };
    const iso = date.toISOString().slice(0, 19);
    return { ok: true, iso: hh === undefined ? iso.slice(0, 10) : iso };
  };
  let m = new RegExp(`^(\\d{4})-(\\d{2})-(\\d{2})${time}$`).exec(value);
  if (m) return build(Number(m[1]), Number(m[2]), Number(m[3]), m[4], m[5], m[6]);
  m = new RegExp(`^(\\d{1,2})[/.-](\\d{1,2})[/.-](\\d{4}),?${time}$`).exec(value);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    const y = Number(m[3]);
    if (a > 12 && b <= 12) return build(y, b, a, m[4], m[5], m[6]);
    if (b > 12 && a <= 12) return build(y, a, b, m[4], m[5], m[6]);
    if (a === b) return build(y, a, b, m[4], m[5], m[6]);
    return { ok: false, ambiguous: value };
  }
  const month = (word: string) => MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
  m = new RegExp(`^(\\d{1,2}) ([A-Za-z]{3,9})\\.?,? (\\d{4})${time}$`).exec(value);
  if (m && month(m[2]!) > 0) return build(Number(m[3]), month(m[2]!), Number(m[1]), m[4], m[5], m[6]);
  m = new RegExp(`^([A-Za-z]{3,9})\\.? (\\d{1,2}),? (\\d{4})${time}$`).exec(value);
  if (m && month(m[1]!) > 0) return build(Number(m[3]), month(m[1]!), Number(m[2]), m[4], m[5], m[6]);
  return { ok: false };
}

/**
 * A decimal as people write it, to goAML's plain form: `1,950,000.00` and `1 950 000.00` (groups of three) are
 * `1950000.00`. A comma as the decimal mark (`1.950.000,00`) is refused: `1,950` would be read two ways.
 */
export function parseAmount(text: string): string | null {
  const value = text.trim().replace(/[\u00a0\u202f]/g, " ");
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value)) return value;
  const grouped = /^([+-]?)(\d{1,3}(?:([, ])\d{3})(?:\3\d{3})*)(\.\d+)?$/.exec(value);
  return grouped ? `${grouped[1]}${grouped[2]!.replace(/[, ]/g, "")}${grouped[4] ?? ""}` : null;
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
    if (hit) return { ok: true, value: hit.value };
    const likely = likelyCode(type, value);
    const name = likely && (likely.label ?? codeName(type, likely.value));
    return must(
      likely
        ? `${describeType(type)}: did you mean ${likely.value}${name ? ` (${name})` : ""}?`
        : describeType(type),
    );
  }
  if (type.base === "dateTime" || type.base === "date") {
    const parsed = parseHumanDate(value);
    if (!parsed.ok)
      return must(
        parsed.ambiguous
          ? `a date whose day and month cannot be confused: ${parsed.ambiguous} could be either; write it as year-month-day (1985-03-04) or with the month in words (4 Mar 1985)`
          : describeType(type),
      );
    out =
      type.base === "date"
        ? parsed.iso.slice(0, 10)
        : parsed.iso.length === 10
          ? `${parsed.iso}T00:00:00`
          : parsed.iso;
  } else if (type.base === "boolean") {
    const yes = /^(true|1|yes|y)$/i.test(value);
    if (!yes && !/^(false|0|no|n)$/i.test(value)) return must(describeType(type));
    return { ok: true, value: yes };
  } else if (NUMERIC.has(type.base)) {
    const amount = parseAmount(value);
    if (amount === null)
      return must(
        /,\d{1,2}$/.test(value)
          ? `${describeType(type)}; a comma before the decimals (${value}) is not accepted`
          : describeType(type),
      );
    out = amount;
    if (INTEGER.has(type.base) && out.includes(".")) return must(describeType(type));
    const [whole = "", fraction = ""] = out.replace(/^[+-]/, "").split(".");
    const { totalDigits, fractionDigits } = type.facets;
    if (fractionDigits !== undefined && fraction.replace(/0+$/, "").length > fractionDigits)
      return must(`a number with at most ${plural(fractionDigits, "decimal place")}`);
    if (
      totalDigits !== undefined &&
      (whole.replace(/^0+/, "") + fraction.replace(/0+$/, "")).length > totalDigits
    )
      return must(`a number of at most ${plural(totalDigits, "digit")}`);
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
  const exact =
    f.length ?? (f.minLength !== undefined && f.minLength === f.maxLength ? f.minLength : undefined);
  if (exact !== undefined && length !== exact) return must(`exactly ${plural(exact, "character")} long`);
  if (f.minLength !== undefined && length < f.minLength)
    return must(`at least ${plural(f.minLength, "character")} long`);
  if (f.maxLength !== undefined && length > f.maxLength)
    return must(`at most ${plural(f.maxLength, "character")} long (it has ${length})`);
  for (const pattern of f.patterns ?? []) {
    const re = xsdPattern(pattern);
    if (re && !re.test(out)) return must(patternMessage(pattern, out));
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
