import { describe, expect, it } from "vitest";
import { copyCsvCell, csvCell, csvDocument, neutralizeFormula, readNeutralized } from "@/lib/csv/write-csv";

describe("CSV cells", () => {
  it("writes every cell a spreadsheet would run as text", () => {
    for (const formula of [
      '=HYPERLINK("http://evil.example","x")',
      "=cmd|' /C calc'!A0",
      "+SUM(1+1)",
      "-2+3",
      "@SUM(1)",
      "\t=1+1",
      "\r=1+1",
    ])
      expect(csvCell(formula).replace(/^"/, "")).toMatch(/^'/);
    expect(csvCell("+cmd|' /C calc'!A0")).toBe("'+cmd|' /C calc'!A0");
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("\t=1")).toBe("'\t=1");
  });

  it("leaves ordinary text and numbers alone, and quotes what CSV needs quoted", () => {
    expect(csvCell("192.0.2.1")).toBe("192.0.2.1");
    expect(csvCell("a, b")).toBe('"a, b"');
    expect(csvCell("it's")).toBe("it's");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(1_700_000_000_000)).toBe("1700000000000");
    expect(csvCell(null)).toBe("");
    expect(
      csvDocument(
        ["value", "note"],
        [
          ["=1", null],
          ["x", "y"],
        ],
      ),
    ).toBe("value,note\n'=1,\nx,y\n");
  });

  it("reads a neutralised cell back to the original value, and nothing else changes", () => {
    for (const value of ["=1+1", "+254700111222", "-x", "@home", "'quoted", "'plain", "plain"])
      expect(readNeutralized(neutralizeFormula(value))).toBe(value);
  });

  it("writes an archive's cells as PostgreSQL's COPY reads them: exact, null apart from the empty string", () => {
    expect(copyCsvCell(null)).toBe("");
    expect(copyCsvCell("")).toBe('""');
    expect(copyCsvCell("=1+1")).toBe("=1+1");
    expect(copyCsvCell("-5.00000000")).toBe("-5.00000000");
    expect(copyCsvCell('{"a": "b,\\nc"}')).toBe('"{""a"": ""b,\\nc""}"');
    expect(copyCsvCell("x\ny")).toBe('"x\ny"');
    expect(copyCsvCell(" padded")).toBe('" padded"');
  });
});
