// Every CSV the service writes goes through here. A spreadsheet runs a cell that starts with =, +, -, @
// (or a tab or carriage return before one) as a formula: `=HYPERLINK(…)` or `+cmd|' /C calc'!A0` from a
// client-supplied value would run on the reviewer's machine. Such a cell is written with a leading
// apostrophe, which spreadsheets show as text and which `readNeutralized` removes again on import.

const FORMULA_START = /^[=+\-@\t\r]/;

/** The value as a spreadsheet must not run it. */
export function neutralizeFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Undoes neutralizeFormula on a cell read back from one of our exports. */
export function readNeutralized(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** One CSV cell: text neutralised and quoted when needed; numbers as they are; null and undefined empty. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = neutralizeFormula(value);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV document: the header row and one row per record, each line ending in \n. */
export function csvDocument(
  header: readonly string[],
  rows: readonly (readonly (string | number | null | undefined)[])[],
): string {
  return [header.map(csvCell), ...rows.map((r) => r.map(csvCell))]
    .map((cells) => `${cells.join(",")}\n`)
    .join("");
}

/**
 * One cell of an archive that PostgreSQL reads back (`COPY ... FROM ... WITH (FORMAT csv, HEADER)`): the
 * value exactly as stored, not neutralised (an archive is restored, not opened in a spreadsheet), null as
 * an unquoted empty cell and the empty string quoted, as COPY writes and reads them.
 */
export function copyCsvCell(value: string | null): string {
  if (value === null) return "";
  return value === "" || /[",\r\n\\]/.test(value) || /^\s|\s$/.test(value)
    ? `"${value.replaceAll('"', '""')}"`
    : value;
}
