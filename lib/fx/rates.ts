// Exchange rates in memory: per currency, the dates (epoch days, ascending) and rates (units per 1 USD).
// Pure: the cache (fx-cache.ts) builds it, baseAmountOf reads it; both screening paths share both.

export type TFxSeries = { days: Int32Array; rates: Float64Array; dates: string[] };
export type TFxTable = ReadonlyMap<string, TFxSeries>;

export const REFERENCE_CURRENCY = "USD";
const DAY_MS = 86_400_000;

export function epochDay(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function buildFxTable(rows: ReadonlyArray<readonly [string, string, number]>): TFxTable {
  const grouped = new Map<string, Array<[number, number, string]>>();
  for (const [currency, date, rate] of rows) {
    let list = grouped.get(currency);
    if (!list) grouped.set(currency, (list = []));
    list.push([epochDay(date), rate, date]);
  }
  const table = new Map<string, TFxSeries>();
  for (const [currency, list] of grouped) {
    list.sort((a, b) => a[0] - b[0]);
    table.set(currency, {
      days: Int32Array.from(list, (r) => r[0]),
      rates: Float64Array.from(list, (r) => r[1]),
      dates: list.map((r) => r[2]),
    });
  }
  return table;
}

/** The rate of `currency` on `day`, or on the nearest earlier date that has one (binary search). */
function rateOn(
  table: TFxTable,
  currency: string,
  day: number,
): { rate: number; date: string | null } | null {
  if (currency === REFERENCE_CURRENCY) return { rate: 1, date: null };
  const series = table.get(currency);
  if (!series) return null;
  let lo = 0;
  let hi = series.days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (series.days[mid]! <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? null : { rate: series.rates[found]!, date: series.dates[found]! };
}

/** What a decision records about the conversion (docs/decisions.md §13: "the decision records the rate used"). */
export type TFxConversion = {
  currency: string;
  baseCurrency: string;
  amount: number;
  /** Absent when no rate is known for the currency (or the base) on or before the transaction's date. */
  baseAmount?: number;
  /** Units of the base currency per unit of `currency`. */
  rate?: number;
  /** The rate dates used (the currency's and the base's; cross rates go through USD). */
  rateDates?: Record<string, string>;
  note?: string;
};

/** Rounded to the stored column's scale, so the CEL value and the stored baseAmount are the same number. */
function roundAmount(value: number): number {
  return Number(value.toFixed(8));
}

export function baseAmountOf(
  table: TFxTable,
  baseCurrency: string,
  tx: { currencyCode: string; amount: number; timestamp: number },
): TFxConversion {
  const base = { currency: tx.currencyCode, baseCurrency, amount: tx.amount };
  if (tx.currencyCode === baseCurrency) return { ...base, baseAmount: tx.amount, rate: 1 };
  const day = Math.floor(tx.timestamp / DAY_MS);
  const from = rateOn(table, tx.currencyCode, day);
  const to = rateOn(table, baseCurrency, day);
  if (!from || !to) {
    const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const missing = [!from && tx.currencyCode, !to && baseCurrency].filter(Boolean).join(" and ");
    return {
      ...base,
      note: `No exchange rate for ${missing} on or before ${date}: transaction.baseAmount is absent`,
    };
  }
  const rate = to.rate / from.rate;
  const rateDates: Record<string, string> = {};
  if (from.date) rateDates[tx.currencyCode] = from.date;
  if (to.date) rateDates[baseCurrency] = to.date;
  return { ...base, baseAmount: roundAmount(tx.amount * rate), rate, rateDates };
}
