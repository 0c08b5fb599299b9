import { describe, expect, it } from "vitest";
import { readGoamlSchema } from "@/lib/reports/goaml/schema";
import { indicatorCodes, suggestIndicators } from "@/lib/reports/indicators";
import { enumerationVariant, GENERIC_XSD } from "@/tests/goaml-variants";

describe("indicator codes and rule suggestions", () => {
  const national = indicatorCodes(readGoamlSchema(enumerationVariant()));

  it("takes the indicator list from the schema, without the placeholder", () => {
    expect(indicatorCodes(readGoamlSchema(GENERIC_XSD))).toEqual([]);
    expect(national).toEqual([
      { value: "NAT-STRUCT", label: "Structuring" },
      { value: "NAT-MULE", label: "Money mule" },
      { value: "NAT-TF", label: "Terrorist financing" },
    ]);
  });

  it("suggests the mapped codes of fired rules that the schema lists, merged per code", () => {
    const suggestions = suggestIndicators({
      firedRuleIds: ["TX-VELOCITY", "TX-MULE", "TX-VELOCITY", "TX-UNMAPPED"],
      mapping: { "TX-VELOCITY": ["NAT-STRUCT", "OLD-CODE"], "TX-MULE": ["NAT-MULE", "NAT-STRUCT"] },
      codes: national,
    });
    expect(suggestions).toEqual([
      { code: "NAT-STRUCT", label: "Structuring", ruleIds: ["TX-VELOCITY", "TX-MULE"] },
      { code: "NAT-MULE", label: "Money mule", ruleIds: ["TX-MULE"] },
    ]);
    expect(suggestIndicators({ firedRuleIds: ["TX-MULE"], mapping: undefined, codes: national })).toEqual([]);
  });
});
