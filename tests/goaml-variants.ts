import { readFileSync } from "node:fs";
import path from "node:path";

// FIU-style variants of the generic goAML 5.0.1 XSD, derived from the shipped file the way national schemas differ
// from it: an element made required and a new required one, lookup lists replaced, elements in another order.

export const GENERIC_XSD = readFileSync(
  path.join(import.meta.dirname, "..", "lib", "reports", "goaml", "goAMLSchema-5.0.1.xsd"),
  "utf8",
);

function replaceOnce(text: string, from: string | RegExp, to: string, what: string): string {
  const next = text.replace(from, to);
  if (next === text) throw new Error(`Variant derivation failed: ${what} not found in the generic XSD`);
  return next;
}

/** Applies `edit` to one top-level named complex type's block only. */
function inType(xsd: string, typeName: string, edit: (block: string) => string): string {
  const start = xsd.indexOf(`<xs:complexType name="${typeName}"`);
  const end = xsd.indexOf("\n  </xs:complexType>", start);
  if (start === -1 || end === -1) throw new Error(`No complex type ${typeName}`);
  return xsd.slice(0, start) + edit(xsd.slice(start, end)) + xsd.slice(end);
}

function enumeration(typeName: string, xsd: string, values: [string, string][]): string {
  const list = values
    .map(
      ([v, label]) =>
        `<xs:enumeration value="${v}"><xs:annotation><xs:documentation>${label}</xs:documentation></xs:annotation></xs:enumeration>`,
    )
    .join("");
  return replaceOnce(
    xsd,
    new RegExp(
      `(<xs:simpleType name="${typeName}">\\s*<xs:restriction base="xs:string">)[\\s\\S]*?(</xs:restriction>)`,
    ),
    `$1${list}$2`,
    `simple type ${typeName}`,
  );
}

/** The address's state becomes required, and the customer gets a new required risk rating (a coded lookup). */
export function requiredVariant(xsd = GENERIC_XSD): string {
  let out = inType(xsd, "t_address", (b) =>
    replaceOnce(b, '<xs:element name="state" minOccurs="0">', '<xs:element name="state">', "t_address/state"),
  );
  out = inType(out, "t_person_my_client", (b) =>
    replaceOnce(
      b,
      '<xs:element name="residence" type="country_type" />',
      '<xs:element name="residence" type="country_type" />\n      <xs:element name="customer_risk_rating" type="risk_rating_type" />',
      "t_person_my_client/residence",
    ),
  );
  return replaceOnce(
    out,
    '<xs:simpleType name="gender_type">',
    '<xs:simpleType name="risk_rating_type"><xs:restriction base="xs:string"><xs:enumeration value="L"><xs:annotation><xs:documentation>Low</xs:documentation></xs:annotation></xs:enumeration><xs:enumeration value="M"><xs:annotation><xs:documentation>Medium</xs:documentation></xs:annotation></xs:enumeration><xs:enumeration value="H"><xs:annotation><xs:documentation>High</xs:documentation></xs:annotation></xs:enumeration></xs:restriction></xs:simpleType>\n  <xs:simpleType name="gender_type">',
    "gender_type",
  );
}

export const NATIONAL_INDICATORS: [string, string][] = [
  ["NAT-STRUCT", "Structuring"],
  ["NAT-MULE", "Money mule"],
  ["NAT-TF", "Terrorist financing"],
];

/** A national FIU's own lookup lists: contact types, transmission modes, funds types and indicators. */
export function enumerationVariant(xsd = GENERIC_XSD): string {
  let out = enumeration("contact_type", xsd, [
    ["PRV", "Private"],
    ["BUS", "Business"],
  ]);
  out = enumeration("conduction_type", out, [
    ["CASH", "Cash"],
    ["WIRE", "Wire transfer"],
    ["CARD", "Card payment"],
  ]);
  out = enumeration("funds_type", out, [
    ["ACC", "Account"],
    ["CSH", "Cash"],
  ]);
  return enumeration("report_indicator_type", out, NATIONAL_INDICATORS);
}

/** Two pairs of elements in another order: a transaction's date before its description; residence before nationality. */
export function reorderedVariant(xsd = GENERIC_XSD): string {
  let out = replaceOnce(
    xsd,
    /(<xs:element name="transaction_description" type="comments_type" \/>)(\s+)(<xs:element name="date_transaction" type="sql_date" \/>)/,
    "$3$2$1",
    "transaction description/date",
  );
  out = inType(out, "t_person_my_client", (b) =>
    replaceOnce(
      b,
      /(<xs:element name="nationality1" type="country_type" \/>)([\s\S]*?)(<xs:element name="residence" type="country_type" \/>)/,
      "$3$2$1",
      "nationality1/residence",
    ),
  );
  return out;
}

/**
 * A national FIU that wants an identity document for its reporting institution's own customer: the optional choice
 * between `identification` (repeated) and the `identifications` list becomes required for t_person_my_client, and
 * the identifier types carry labels (as national lists do).
 */
export function identificationVariant(xsd = GENERIC_XSD): string {
  const out = inType(xsd, "t_person_my_client", (b) =>
    replaceOnce(
      b,
      /<xs:choice minOccurs="0">(\s*<xs:element name="identification")/,
      "<xs:choice>$1",
      "t_person_my_client identification choice",
    ),
  );
  return enumeration("identifier_type", out, [
    ["A", "Passport"],
    ["B", "National identity card"],
    ["C", "Driving licence"],
    ["D", "Residence permit"],
  ]);
}

/** Two phone numbers at least for the institution's own customer (a repeated element with a minimum of two). */
export function twoPhonesVariant(xsd = GENERIC_XSD): string {
  return inType(xsd, "t_person_my_client", (b) =>
    replaceOnce(
      b,
      /(<xs:element name="phones">\s*<xs:complexType>\s*<xs:sequence) maxOccurs="unbounded">/,
      '$1 minOccurs="2" maxOccurs="unbounded">',
      "t_person_my_client/phones",
    ),
  );
}

/** The customer's employer is required: a choice between the employer's details and an employment history. */
export function employerVariant(xsd = GENERIC_XSD): string {
  return inType(xsd, "t_person_my_client", (b) =>
    replaceOnce(
      b,
      /<xs:choice minOccurs="0">(\s*<xs:sequence>\s*<xs:annotation>[\s\S]*?<\/xs:annotation>\s*<xs:element name="employer_name")/,
      "<xs:choice>$1",
      "t_person_my_client employer choice",
    ),
  );
}
