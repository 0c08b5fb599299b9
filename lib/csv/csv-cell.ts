// One CSV cell, safe to open in a spreadsheet: a value a spreadsheet would read as a formula (it starts
// with =, +, -, @, a tab or a carriage return) gets a leading apostrophe, which the spreadsheet shows as
// text; then the usual quoting (RFC 4180) when the value holds a comma, a quote or a line break.
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  // numbers are written as numbers: "-5" is a value, not a formula
  if (typeof value !== "string") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV line of cells, ended with CRLF as RFC 4180 writes it. */
export function csvRow(cells: readonly (string | number | boolean | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
