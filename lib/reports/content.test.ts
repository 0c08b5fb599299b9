import { describe, expect, it } from "vitest";
import { getAtPath, incompletePaths, parsePath, setAtPath, type TContent } from "@/lib/reports/content";
import { readGoamlSchema } from "@/lib/reports/goaml/schema";
import { writeGoamlXml } from "@/lib/reports/goaml/walk";
import { orderContent } from "@/lib/reports/goaml-xml";
import { GENERIC_XSD } from "@/tests/goaml-variants";

const schema = readGoamlSchema(GENERIC_XSD);
import { splitE164 } from "@/lib/reports/populate-report";

const content: TContent = {
  rentity_id: null,
  reporting_person: { first_name: "A", last_name: null },
  transactions: [{ t_from_my_client: { from_person: { phones: [{ tph_number: null }] } } }],
  report_indicators: [],
};

describe("report content", () => {
  it("lists every null leaf and an empty indicator list as incomplete", () => {
    expect(incompletePaths(content)).toEqual([
      "rentity_id",
      "reporting_person.last_name",
      "transactions[0].t_from_my_client.from_person.phones[0].tph_number",
      "report_indicators",
    ]);
  });

  it("reads and sets existing leaves only, without touching the original", () => {
    expect(parsePath("transactions[0].t_from_my_client")).toEqual(["transactions", 0, "t_from_my_client"]);
    expect(parsePath("a..b")).toBeNull();
    const next = setAtPath(
      content,
      "transactions[0].t_from_my_client.from_person.phones[0].tph_number",
      "700",
    );
    expect(getAtPath(next!, "transactions[0].t_from_my_client.from_person.phones[0].tph_number")).toBe("700");
    expect(
      getAtPath(content, "transactions[0].t_from_my_client.from_person.phones[0].tph_number"),
    ).toBeNull();
    expect(setAtPath(content, "reporting_person", "x")).toBeNull();
    expect(setAtPath(content, "reporting_person.middle_name", "x")).toBeNull();
    expect(setAtPath(content, "reporting_person.middle_name", "x", { create: true })).toMatchObject({
      reporting_person: { first_name: "A", middle_name: "x" },
    });
    expect(setAtPath(content, "transactions.0", "x")).toBeNull();
  });

  it("splits E.164 numbers into country prefix and number", () => {
    expect(splitE164("+254700100001")).toEqual({ prefix: "254", number: "700100001" });
    expect(splitE164("+14155550100")).toEqual({ prefix: "1", number: "4155550100" });
    expect(splitE164("+447700900123")).toEqual({ prefix: "44", number: "7700900123" });
    expect(splitE164("0700")).toBeNull();
  });

  it("renders elements in goAML order whatever the stored key order, escaping text", () => {
    const xml = writeGoamlXml(
      {
        report_indicators: ["X&Y"],
        location: { country_code: "KE", city: "Nairobi", address: "1 <Main>", address_type: "1" },
        rentity_id: "1",
      },
      schema,
    );
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<report>\n  <rentity_id>1</rentity_id>\n  <location>\n    <address_type>1</address_type>\n' +
        "    <address>1 &lt;Main&gt;</address>\n    <city>Nairobi</city>\n    <country_code>KE</country_code>\n  </location>\n" +
        "  <report_indicators>\n    <indicator>X&amp;Y</indicator>\n  </report_indicators>\n</report>\n",
    );
    expect(Object.keys(orderContent({ report_indicators: [], rentity_id: "1" }, schema))).toEqual([
      "rentity_id",
      "report_indicators",
    ]);
  });
});
