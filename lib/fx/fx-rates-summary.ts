import { prisma } from "@/lib/db";

/** ISO 4217 codes with their English names, for the base currency choice. */
export function currencyChoices(): Array<{ code: string; name: string }> {
  const names = new Intl.DisplayNames(["en"], { type: "currency" });
  return Intl.supportedValuesOf("currency").map((code) => ({ code, name: names.of(code) ?? code }));
}

export type TFxRatesSummary = { currencies: number; rates: number; latestDate: string | null };

/** What the operator has loaded with `fx import` (shared by every client), for the Settings page. */
export async function fxRatesSummary(): Promise<TFxRatesSummary> {
  const [row] = await prisma.$queryRaw<[{ currencies: number; rates: number; latest: string | null }]>`
    SELECT count(DISTINCT "currency")::int AS currencies, count(*)::int AS rates, max("date")::text AS latest
    FROM "fx_rates"`;
  return { currencies: row.currencies, rates: row.rates, latestDate: row.latest };
}
