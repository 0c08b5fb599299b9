// How the dashboard writes money, dates, enums, numbers and people: pure, the same on the server and in the browser.

type TDateInput = number | string | Date;
type TAmount = number | string | bigint;

const EMPTY = "—";
// One locale for numbers so the server render and the browser render agree (`60,000.00 USD`).
const NUMBER_LOCALE = "en-US";
// Day-month-year with a short month name reads the same for every reader: `23 Nov 2026, 19:49`.
const DATE_LOCALE = "en-GB";

/** Values whose label is not the sentence-cased words of the value. */
const ENUM_LABELS: Record<string, string> = {
  STEP_UP_AUTH: "Step-up auth",
  STEP_UP_KYC: "Step-up KYC",
  STEP_UP_ID: "Step-up ID",
  "n/a": "N/A",
  paymentInstrument: "Payment instrument",
  medium_low: "Medium-low",
  goaml: "goAML",
};

/** Words kept in capitals inside an otherwise sentence-cased label. */
const ACRONYMS = new Set([
  "api",
  "cel",
  "fiu",
  "iban",
  "id",
  "ip",
  "kyc",
  "pep",
  "sla",
  "url",
  "xml",
  "str",
  "sar",
  "ctr",
  "iftr",
  "fx",
]);

/** A Date from ms (number or digit string), an ISO string or a Date; null when missing or invalid. */
export function toDate(value: TDateInput | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date =
    value instanceof Date
      ? value
      : new Date(typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat(NUMBER_LOCALE, { style: "currency", currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2; // not an ISO 4217 code: show it as given, with cents
  }
}

/** `60000, "USD"` → `"60,000.00 USD"`; `1500, "JPY"` → `"1,500 JPY"`. Decimal strings keep every digit. */
export function formatMoney(amount: TAmount | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || amount === "") return EMPTY;
  const digits = minorDigits(currency);
  const number = new Intl.NumberFormat(NUMBER_LOCALE, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  // Intl formats a numeric string as an exact decimal, so large amounts lose no precision.
  const text = number.format(amount as Parameters<Intl.NumberFormat["format"]>[0]);
  return text === "NaN" ? `${String(amount)} ${currency}` : `${text} ${currency}`;
}

const DAY: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric" };
const DAY_AND_TIME: Intl.DateTimeFormatOptions = {
  ...DAY,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
};

function formatInstant(
  value: TDateInput | null | undefined,
  options: Intl.DateTimeFormatOptions,
  timeZone?: string,
) {
  const date = toDate(value);
  return date ? new Intl.DateTimeFormat(DATE_LOCALE, { ...options, timeZone }).format(date) : EMPTY;
}

/** `"23 Nov 2026, 19:49"` in the given time zone (the runtime's when omitted). */
export function formatDateTime(value: TDateInput | null | undefined, timeZone?: string): string {
  return formatInstant(value, DAY_AND_TIME, timeZone);
}

/** `"23 Nov 2026"` in the given time zone (the runtime's when omitted). */
export function formatDate(value: TDateInput | null | undefined, timeZone?: string): string {
  return formatInstant(value, DAY, timeZone);
}

/** `"19:49:05"`: the time of day in the given time zone, for a moment whose date is shown nearby. */
export function formatTimeOfDay(
  value: TDateInput | null | undefined,
  timeZone?: string,
  { seconds = true }: { seconds?: boolean } = {},
): string {
  const clock: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  return formatInstant(value, seconds ? { ...clock, second: "2-digit" } : clock, timeZone);
}

/** `"2026-11-23 19:49:05 UTC"`: the exact instant, for a `title`. */
export function formatDateTimeUtc(value: TDateInput | null | undefined): string {
  const date = toDate(value);
  if (!date) return EMPTY;
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** `STEP_UP_AUTH` → `"Step-up auth"`, `very_high` → `"Very high"`, `dry-run` → `"Dry run"`. */
export function formatEnum(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return EMPTY;
  const known = ENUM_LABELS[value] ?? ENUM_LABELS[value.toLowerCase()];
  if (known) return known;
  const words = value
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase())
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w));
  const sentence = words.join(" ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

export type TPerson = { name?: string | null; email: string };

/** The display name, falling back to the email; the email belongs in a `title` beside it. */
export function formatPerson(person: TPerson | null | undefined): string {
  if (!person) return EMPTY;
  return person.name?.trim() || person.email;
}

/** `1234567.5` → `"1,234,567.5"` (at most two decimals). */
export function formatNumber(n: number | null | undefined, maximumFractionDigits = 2): string {
  if (n === null || n === undefined || Number.isNaN(n)) return EMPTY;
  return new Intl.NumberFormat(NUMBER_LOCALE, { maximumFractionDigits }).format(n);
}

/**
 * Every digit a number holds, grouped: `9999.99996` → `"9,999.99996"` (never rounded up to `"10,000"`),
 * for values a rule compared against a threshold. Exponent forms (`1e-7`) are left as they are.
 */
export function formatExactNumber(n: number): string {
  const text = String(n);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [int = "", frac] = text.split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** A count with its noun: `(1, "open alert")` → `"1 open alert"`, `(3, "open alert")` → `"3 open alerts"`. */
export function formatCount(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatNumber(n)} ${n === 1 ? noun : plural}`;
}

/** Always `digits` decimals, grouped: a similarity score `1` → `"1.00"`. */
export function formatFixed(n: number | null | undefined, digits: number): string {
  if (n === null || n === undefined || Number.isNaN(n)) return EMPTY;
  return new Intl.NumberFormat(NUMBER_LOCALE, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);
}

/** A ratio as a percentage: `0.1234` → `"12.3%"`. */
export function formatPercent(ratio: number | null | undefined, maximumFractionDigits = 1): string {
  if (ratio === null || ratio === undefined || Number.isNaN(ratio)) return EMPTY;
  return new Intl.NumberFormat(NUMBER_LOCALE, { style: "percent", maximumFractionDigits }).format(ratio);
}

const AGGREGATE_FUNCTION_WORDS: Record<string, string> = {
  sum: "Sum of",
  avg: "Average",
  min: "Smallest",
  max: "Largest",
};
const WINDOW_UNITS: Record<string, [string, string]> = {
  s: ["second", "seconds"],
  m: ["minute", "minutes"],
  h: ["hour", "hours"],
  d: ["day", "days"],
};

/** `"24h"` → `"24 hours"`, `"1d"` → `"1 day"`. */
export function formatWindow(window: string): string {
  const match = /^(\d+)([smhd])$/.exec(window);
  const units = match ? WINDOW_UNITS[match[2]!] : undefined;
  if (!match || !units) return window;
  return `${match[1]} ${match[1] === "1" ? units[0] : units[1]}`;
}

export type TAggregateWords = {
  function: string;
  over: string;
  groupBy: string;
  window: string;
  field?: string;
  where?: string;
};

/**
 * A rule aggregate in words: `{count, transaction, userId, 24h, where}` →
 * "Number of transactions with the same userId in the last 24 hours, where transaction.amount >= 1000".
 */
export function formatAggregate(stored: TAggregateWords | unknown): string {
  // Stored decisions are JSON written by any engine version: describe what is there.
  if (!stored || typeof stored !== "object") return "";
  const def = stored as Partial<TAggregateWords>;
  const subject = def.over === "event" ? "events" : "transactions";
  const field = def.field ?? "?";
  const measured =
    def.function === "count"
      ? `Number of ${subject}`
      : def.function === "countDistinct"
        ? `Number of distinct ${field} values among the ${subject}`
        : `${AGGREGATE_FUNCTION_WORDS[def.function ?? ""] ?? formatEnum(def.function)} ${field} of the ${subject}`;
  const where = def.where ? `, where ${def.where}` : "";
  const group = def.groupBy ? ` with the same ${def.groupBy}` : "";
  const window = def.window ? ` in the last ${formatWindow(def.window)}` : "";
  return `${measured}${group}${window}${where}`;
}

// Characters that change how text around them displays without showing themselves: direction
// overrides, embeddings and isolates, direction marks, zero-width characters, the soft hyphen and
// the other C0/C1 controls. A client-supplied "\u202Eevil" displays as "live" unless shown.
const INVISIBLE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** `"\u202Eevil"` → `"⟨U+202E⟩evil"`: each invisible formatting or control character as a visible marker. */
export function revealInvisible(value: string): string {
  return value.replace(
    INVISIBLE,
    (ch) => `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`,
  );
}
