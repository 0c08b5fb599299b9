import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "@/lib/csv/csv-cell";

describe("csvCell", () => {
  it("neutralises every cell a spreadsheet would run as a formula", () => {
    expect(csvCell('=HYPERLINK("http://evil.test","x")')).toBe(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(csvCell("+cmd|' /C calc'!A0")).toBe("'+cmd|' /C calc'!A0");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(1+1)")).toBe("'@SUM(1+1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("\r=1")).toBe(`"'\r=1"`);
  });

  it("leaves plain text and numbers as they are, quoting separators", () => {
    expect(csvCell("rule.published")).toBe("rule.published");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(null)).toBe("");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvRow(["a", 1, null])).toBe("a,1,\r\n");
  });
});
