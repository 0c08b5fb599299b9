import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCsvRecords, type TCsvRecord } from "@/lib/sanctions/read-csv";

const dir = mkdtempSync(path.join(tmpdir(), "csv-"));

async function read(text: string, chunkSize?: number): Promise<TCsvRecord[]> {
  const file = path.join(dir, `f${Math.random()}.csv`);
  writeFileSync(file, text);
  const out: TCsvRecord[] = [];
  for await (const record of readCsvRecords(file, chunkSize)) out.push(record);
  return out;
}

const SAMPLE =
  '\ufeffid,name,aliases\r\n1,"Smith, John","J. ""Jack"" Smith;Иван"\r\n2,"multi\nline",x\n3,plain,\n';

describe("readCsvRecords", () => {
  it("parses quotes, escaped quotes, CRLF, a BOM and line breaks inside quotes, with line numbers", async () => {
    const expected = [
      { fields: ["id", "name", "aliases"], line: 1 },
      { fields: ["1", "Smith, John", 'J. "Jack" Smith;Иван'], line: 2 },
      { fields: ["2", "multi\nline", "x"], line: 3 },
      { fields: ["3", "plain", ""], line: 5 },
    ];
    expect(await read(SAMPLE)).toEqual(expected);
    // every chunk boundary, including inside "" and between \r and \n
    for (const size of [1, 2, 3, 5, 7]) expect(await read(SAMPLE, size)).toEqual(expected);
  });

  it("names the line of a malformed record", async () => {
    await expect(read('a,b\n1,"open\n2,x\n')).rejects.toThrow(/line 2: a quoted field is not closed/);
    await expect(read('a,b\n1,x"y"\n')).rejects.toThrow(/line 2: a quote inside an unquoted field/);
    await expect(read('a,b\n1,"x"y\n')).rejects.toThrow(/line 2: text after a closing quote/);
  });
});
