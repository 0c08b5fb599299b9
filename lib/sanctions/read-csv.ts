// Streaming CSV reader (RFC 4180: quoted fields may hold commas, quotes as "" and line breaks).
// Reads the file chunk by chunk; only the record being parsed is held in memory.
import { createReadStream } from "node:fs";

export class CsvFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export type TCsvRecord = { fields: string[]; line: number };

export function readCsvRecords(file: string, chunkSize = 1 << 20): AsyncGenerator<TCsvRecord> {
  return parseCsv(createReadStream(file, { encoding: "utf8", highWaterMark: chunkSize }));
}

/** The same parser over text already in memory (an uploaded file). */
export function readCsvText(text: string): AsyncGenerator<TCsvRecord> {
  return parseCsv([text]);
}

async function* parseCsv(stream: AsyncIterable<string> | Iterable<string>): AsyncGenerator<TCsvRecord> {
  let fields: string[] = [];
  let field = "";
  let inQuotes = false;
  let quoteClosed = false;
  let line = 1;
  let recordLine = 1;
  let first = true;
  let pendingCr = false;
  let quoteAtChunkEnd = false; // inside quotes, the previous chunk ended on a quote

  const endField = () => {
    fields.push(field);
    field = "";
    quoteClosed = false;
  };

  for await (const chunk of stream) {
    let text = chunk;
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const records: TCsvRecord[] = [];
    let start = 0; // start of the run being copied into `field`
    let i = 0;
    if (quoteAtChunkEnd) {
      quoteAtChunkEnd = false;
      if (text.charCodeAt(0) === 34) {
        field += '"';
        i = start = 1;
      } else {
        inQuotes = false;
        quoteClosed = true;
      }
    }
    for (; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (pendingCr) {
        pendingCr = false;
        if (ch === 10) {
          start = i + 1;
          continue;
        }
      }
      if (inQuotes) {
        if (ch === 34) {
          field += text.slice(start, i);
          if (text.charCodeAt(i + 1) === 34) {
            field += '"';
            i++;
            start = i + 1;
          } else if (i + 1 === text.length) {
            // a quote at the chunk's end: the next chunk's first character decides
            quoteAtChunkEnd = true;
            start = i + 1;
          } else {
            inQuotes = false;
            quoteClosed = true;
            start = i + 1;
          }
        } else if (ch === 10) line++;
        continue;
      }
      if (ch === 34) {
        if (field.length > 0 || i > start || quoteClosed) {
          throw new CsvFormatError(line, "a quote inside an unquoted field");
        }
        inQuotes = true;
        start = i + 1;
        continue;
      }
      if (ch === 44 || ch === 10 || ch === 13) {
        if (!quoteClosed) field += text.slice(start, i);
        endField();
        start = i + 1;
        if (ch !== 44) {
          records.push({ fields, line: recordLine });
          fields = [];
          line++;
          recordLine = line;
          if (ch === 13) pendingCr = true;
        }
        continue;
      }
      if (quoteClosed) throw new CsvFormatError(line, "text after a closing quote");
    }
    if (inQuotes ? !quoteAtChunkEnd : !quoteClosed) field += text.slice(start);
    for (const record of records) yield record;
  }
  if (quoteAtChunkEnd) {
    inQuotes = false;
    quoteClosed = true;
  }
  if (inQuotes) throw new CsvFormatError(recordLine, "a quoted field is not closed");
  if (field.length > 0 || fields.length > 0 || quoteClosed) {
    endField();
    yield { fields, line: recordLine };
  }
}
