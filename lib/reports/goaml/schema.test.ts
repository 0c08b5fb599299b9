import { describe, expect, it } from "vitest";
import type { TContent } from "@/lib/reports/content";
import { setAtPath } from "@/lib/reports/content";
import { DEMO_REPORTING_PROFILE } from "@/lib/reports/demo-reports";
import { checkValue, describeType, fieldLabel } from "@/lib/reports/goaml/check-value";
import {
  childElement,
  elementOrder,
  lookup,
  readGoamlSchema,
  requiredElements,
  type TElementDecl,
  type TEnumValue,
  type TFacets,
} from "@/lib/reports/goaml/schema";
import { declAt, missingPaths, writeGoamlXml } from "@/lib/reports/goaml/walk";
import { populateReport } from "@/lib/reports/populate-report";
import { ZTransaction } from "@/lib/transactions/schemas";
import {
  enumerationVariant,
  GENERIC_XSD,
  NATIONAL_INDICATORS,
  reorderedVariant,
  requiredVariant,
} from "@/tests/goaml-variants";

const generic = readGoamlSchema(GENERIC_XSD);

const person = "transactions[0].t_from_my_client.from_person";

function content(): TContent {
  const tx = ZTransaction.parse({
    id: "tx-1",
    userId: "u-1",
    status: "APPROVED",
    currencyCode: "KES",
    amount: 95000,
    timestamp: Date.UTC(2026, 10, 20, 9, 30),
    direction: "payout",
    paymentMethod: "bank",
    bank: {
      bankName: "Harbour Bank",
      routingNumber: "HB001",
      accountNumber: "001",
      accountHolderName: "Peter",
    },
    recipient: {
      firstName: "Peter",
      lastName: "Otieno",
      address: { postalCode: "80100", country: "KE", city: "Mombasa" },
      paymentMethod: "bank",
      bank: { bankName: "Harbour Bank", routingNumber: "HB001", accountNumber: "001" },
    },
  });
  const user = {
    id: "u-1",
    firstName: "Daniel",
    lastName: "Kamau",
    phone: { phone: "+254711222333" },
    address: { street: "12 Moi Avenue", city: "Nairobi", country: "KE", postalCode: "00200" },
    documents: [{ type: "national_id", number: "29384756", country: "KE" }],
  };
  return populateReport({
    profile: DEMO_REPORTING_PROFILE,
    report: {
      id: "r-1",
      reportType: "STR",
      reason: "Structuring",
      indicators: ["-"],
      reportDate: new Date(Date.UTC(2026, 10, 21)),
    },
    user,
    users: new Map([["u-1", user]]),
    merchant: null,
    merchants: new Map(),
    transactions: [tx],
  });
}

function fill(c: TContent, values: Record<string, string>): TContent {
  let out = c;
  for (const [path, value] of Object.entries(values)) {
    const next = setAtPath(out, path, value, { create: true });
    if (!next) throw new Error(`cannot set ${path}`);
    out = next;
  }
  return out;
}

describe("goAML schema reader", () => {
  it("reads element order, required elements, enumerations with labels and facets from the generic XSD", () => {
    expect(generic.version).toBe("5.0.1");
    expect(elementOrder(generic.report.complex).slice(0, 5)).toEqual([
      "schema_version",
      "rentity_id",
      "rentity_branch",
      "submission_code",
      "report_code",
    ]);
    expect(requiredElements(generic.complexTypes.get("t_person_my_client"))).toEqual([
      "first_name",
      "last_name",
      "birthdate",
      "ssn",
      "nationality1",
      "residence",
      "phones",
      "occupation",
    ]);
    expect(requiredElements(generic.complexTypes.get("t_address"))).not.toContain("state");
    expect(lookup(generic, "report_type")).toContainEqual({ value: "STR", label: "STR" });
    expect(lookup(generic, "report_indicator_type")).toEqual([{ value: "-" }]);
    expect(lookup(generic, "country_type").map((e) => e.value)).toContain("GB");
    expect(generic.simpleTypes.get("sql_decimal")).toMatchObject({
      base: "decimal",
      facets: { fractionDigits: 13 },
    });
    expect(generic.simpleTypes.get("sql_date")?.base).toBe("dateTime");
    const rentity = childElement(generic.report.complex, "rentity_id");
    expect(rentity?.simple).toMatchObject({ base: "int", facets: { minInclusive: "1" } });
    expect(declAt(generic, `${person}.phones[0].tph_number`)?.simple?.facets.maxLength).toBe(50);
  });

  it("reads an added required element, a required optional one, replaced lists and a new order from variants", () => {
    const required = readGoamlSchema(requiredVariant());
    expect(requiredElements(required.complexTypes.get("t_address"))).toContain("state");
    expect(requiredElements(required.complexTypes.get("t_person_my_client"))).toContain(
      "customer_risk_rating",
    );
    expect(declAt(required, `${person}.customer_risk_rating`)?.simple?.enumerations).toEqual([
      { value: "L", label: "Low" },
      { value: "M", label: "Medium" },
      { value: "H", label: "High" },
    ]);

    const national = readGoamlSchema(enumerationVariant());
    expect(lookup(national, "contact_type")).toEqual([
      { value: "PRV", label: "Private" },
      { value: "BUS", label: "Business" },
    ]);
    expect(declAt(national, "report_indicators[0]")?.simple?.enumerations.map((e) => e.value)).toEqual(
      NATIONAL_INDICATORS.map(([v]) => v),
    );

    const reordered = readGoamlSchema(reorderedVariant());
    const order = elementOrder(childElement(reordered.report.complex, "transaction")?.complex);
    expect(order.indexOf("date_transaction")).toBeLessThan(order.indexOf("transaction_description"));
    const personOrder = elementOrder(reordered.complexTypes.get("t_person_my_client"));
    expect(personOrder.indexOf("residence")).toBeLessThan(personOrder.indexOf("nationality1"));
  });

  it("refuses text that is not a goAML schema", () => {
    expect(() => readGoamlSchema("<html><body/></html>")).toThrow(/not an XML Schema/i);
    expect(() => readGoamlSchema('<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"/>')).toThrow(
      /report/,
    );
    expect(() => readGoamlSchema("<xs:schema><xs:element>")).toThrow();
  });
});

describe("goAML writer and completeness", () => {
  const complete = (c: TContent) =>
    fill(c, { [`${person}.birthdate`]: "1985-06-15T00:00:00", [`${person}.occupation`]: "Trader" });

  it("lists what the generic schema still needs and writes elements in its order", () => {
    const c = content();
    expect(missingPaths(c, generic)).toEqual([`${person}.birthdate`, `${person}.occupation`]);
    const xml = writeGoamlXml(complete(c), generic);
    expect(missingPaths(complete(c), generic)).toEqual([]);
    expect(xml.indexOf("<transaction_description>")).toBeLessThan(xml.indexOf("<date_transaction>"));
    expect(xml.indexOf("<nationality1>")).toBeLessThan(xml.indexOf("<residence>"));
    expect(xml).toContain("<phones>\n");
    expect(xml).toMatch(/<report_indicators>\s*<indicator>-<\/indicator>\s*<\/report_indicators>/);
  });

  it("follows a reordered schema", () => {
    const xml = writeGoamlXml(complete(content()), readGoamlSchema(reorderedVariant()));
    expect(xml.indexOf("<date_transaction>")).toBeLessThan(xml.indexOf("<transaction_description>"));
    expect(xml.indexOf("<residence>")).toBeLessThan(xml.indexOf("<nationality1>"));
  });

  it("asks for elements a schema adds or requires, and writes them once supplied", () => {
    const schema = readGoamlSchema(requiredVariant());
    const c = complete(content());
    expect(missingPaths(c, schema)).toEqual([
      "location.state",
      `${person}.customer_risk_rating`,
      `${person}.addresses[0].state`,
    ]);
    const filled = fill(c, {
      "location.state": "Nairobi County",
      [`${person}.customer_risk_rating`]: "H",
      [`${person}.addresses[0].state`]: "Nairobi County",
    });
    expect(missingPaths(filled, schema)).toEqual([]);
    const xml = writeGoamlXml(filled, schema);
    expect(xml).toContain("<state>Nairobi County</state>");
    const customer = xml.slice(xml.indexOf("<from_person>"));
    expect(customer.indexOf("<residence>")).toBeLessThan(customer.indexOf("<customer_risk_rating>H"));
    expect(customer.indexOf("<customer_risk_rating>")).toBeLessThan(customer.indexOf("<phones>"));
  });
});

describe("value checks against schema types", () => {
  const at = (path: string) => declAt(generic, path)!;

  it("refuses wrong values with a message in words and normalises good ones", () => {
    expect(checkValue(at(`${person}.nationality1`), "United Kingdom")).toEqual({
      ok: false,
      message: "Nationality must be a two-letter country code: did you mean GB (United Kingdom)?",
    });
    // no likely code: none is offered (never the first code of the list)
    expect(checkValue(at(`${person}.nationality1`), "Atlantis")).toEqual({
      ok: false,
      message: "Nationality must be a two-letter country code",
    });
    expect(checkValue(at(`${person}.nationality1`), "gb")).toEqual({ ok: true, value: "GB" });
    expect(checkValue(at("transactions[0].amount_local"), "abc")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Amount in local currency must be a number/),
    });
    expect(checkValue(at("transactions[0].amount_local"), "1250.50")).toEqual({ ok: true, value: "1250.50" });
    expect(
      checkValue(at("transactions[0].t_from_my_client.from_foreign_currency.foreign_exchange_rate"), "USD"),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/^Exchange rate must be a number/) });
    expect(checkValue(at(`${person}.birthdate`), "15/06/1985")).toEqual({
      ok: true,
      value: "1985-06-15T00:00:00",
    });
    expect(checkValue(at(`${person}.birthdate`), "06/05/1985")).toMatchObject({
      ok: false,
      message: expect.stringContaining("06/05/1985 could be either"),
    });
    expect(checkValue(at(`${person}.birthdate`), "1985-06-15")).toEqual({
      ok: true,
      value: "1985-06-15T00:00:00",
    });
    expect(checkValue(at(`${person}.birthdate`), "1985-02-30")).toMatchObject({ ok: false });
    expect(checkValue(at("rentity_id"), "0")).toEqual({
      ok: false,
      message: "Reporting entity id must be at least 1",
    });
    expect(checkValue(at("rentity_id"), "12.5")).toMatchObject({ ok: false });
    expect(checkValue(at("location.zip"), "12345678901")).toEqual({
      ok: false,
      message: "Postal code must be at most 10 characters long (it has 11)",
    });
    expect(checkValue(at("submission_code"), "X")).toMatchObject({ ok: false });
    expect(fieldLabel("tph_extension")).toBe("Extension");
  });

  it("says length limits, patterns and codes in words", () => {
    const simple = (facets: TFacets, enumerations: TEnumValue[] = []): TElementDecl => ({
      kind: "element",
      name: "email",
      min: 1,
      max: 1,
      simple: {
        name: enumerations.length ? "contact_type" : undefined,
        base: "string",
        enumerations,
        facets,
      },
    });
    expect(checkValue(simple({ minLength: 1, maxLength: 1 }), "AB")).toEqual({
      ok: false,
      message: "Email must be exactly 1 character long",
    });
    expect(describeType(simple({ minLength: 1, maxLength: 1 }).simple!)).toBe("exactly 1 character");
    const email = checkValue(
      simple({ patterns: ["[_a-zA-Z0-9+-]+(\\.[_a-zA-Z0-9+-]+)*@[a-zA-Z0-9-]+(\\.[a-zA-Z0-9-]+)*"] }),
      "d k@ex!ample.com",
    );
    expect(email).toEqual({
      ok: false,
      message:
        'Email must be in the FIU\'s form, for example name@example.com; spaces and "!" are not allowed',
    });
    const codes = [
      { value: "HOM", label: "Home" },
      { value: "BUS", label: "Business" },
    ];
    expect(checkValue(simple({}, codes), "business")).toEqual({
      ok: false,
      message: "Email must be one of the schema's codes: did you mean BUS (Business)?",
    });
    expect(checkValue(simple({}, codes), "office")).toEqual({
      ok: false,
      message: "Email must be one of the schema's codes",
    });
  });
});
