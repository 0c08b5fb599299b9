// `fx import FILE`: operator-loaded exchange rates (docs/decisions.md §13), shared by every client.
import { basename } from "node:path";
import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { FX_DATASET } from "@/lib/fx/fx-cache";
import { REFERENCE_CURRENCY } from "@/lib/fx/rates";
import { CsvFormatError, readCsvRecords } from "@/lib/sanctions/read-csv";

/** A bad file: names the file and line; nothing was imported. */
export class FxImportError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CURRENCY = /^[A-Z]{3}$/;
const RATE = /^\d+(\.\d+)?([eE][-+]?\d+)?$/;
const BATCH = 2_000;

type TRate = { currency: string; date: string; rate: string };

function validDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

/**
 * Reads `date,currency,rate` rows (header row first, columns in any order; rate = units of the
 * currency per 1 USD) and upserts them in one transaction that also bumps the "fx" dataset version,
 * so every process reloads its rate table on its next screening. Any bad row imports nothing.
 */
export async function importFxRates({ file }: { file: string }): Promise<{ rates: number }> {
  const name = basename(file);
  const rates: TRate[] = [];
  const seen = new Map<string, number>();
  let columns: { date: number; currency: number; rate: number } | null = null;
  try {
    for await (const { fields, line } of readCsvRecords(file)) {
      if (fields.length === 1 && fields[0]!.trim() === "") continue;
      const fail = (message: string) => {
        throw new FxImportError(`${name} line ${line}: ${message}`);
      };
      if (!columns) {
        const header = fields.map((f) => f.trim().toLowerCase());
        const at = (col: string) => header.indexOf(col);
        if (at("date") < 0 || at("currency") < 0 || at("rate") < 0)
          fail(`the header row must name the columns date,currency,rate (got ${fields.join(",")})`);
        columns = { date: at("date"), currency: at("currency"), rate: at("rate") };
        continue;
      }
      const date = (fields[columns.date] ?? "").trim();
      const currency = (fields[columns.currency] ?? "").trim().toUpperCase();
      const rate = (fields[columns.rate] ?? "").trim();
      if (!validDate(date)) fail(`date '${date}' is not a date (YYYY-MM-DD)`);
      if (!CURRENCY.test(currency)) fail(`currency '${currency}' is not an ISO 4217 code`);
      if (!RATE.test(rate) || !(Number(rate) > 0) || !Number.isFinite(Number(rate)))
        fail(`rate '${rate}' is not a positive number`);
      if (currency === REFERENCE_CURRENCY && Number(rate) !== 1)
        fail(`USD is the reference currency: its rate is always 1`);
      const key = `${currency}/${date}`;
      const first = seen.get(key);
      if (first !== undefined) fail(`${currency} on ${date} is already given on line ${first}`);
      seen.set(key, line);
      rates.push({ currency, date, rate });
    }
  } catch (err) {
    if (err instanceof CsvFormatError) throw new FxImportError(`${name} ${err.message}`);
    throw err;
  }
  if (!columns)
    throw new FxImportError(`${name}: the file is empty (expected a header row date,currency,rate)`);
  if (rates.length === 0) throw new FxImportError(`${name}: no rates after the header row`);

  await prisma.$transaction(
    async (tx) => {
      for (let i = 0; i < rates.length; i += BATCH) {
        const batch = rates.slice(i, i + BATCH);
        await tx.$executeRaw`
          INSERT INTO "fx_rates" ("currency", "date", "rate")
          SELECT * FROM unnest(${batch.map((r) => r.currency)}::text[], ${batch.map((r) => r.date)}::date[],
                               ${batch.map((r) => r.rate)}::numeric[])
          ON CONFLICT ("currency", "date") DO UPDATE SET "rate" = EXCLUDED."rate"`;
      }
      await tx.$executeRaw(Prisma.sql`
        INSERT INTO "dataset_versions" ("name", "version", "updatedAt") VALUES (${FX_DATASET}, 1, now())
        ON CONFLICT ("name") DO UPDATE SET "version" = "dataset_versions"."version" + 1, "updatedAt" = now()`);
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  return { rates: rates.length };
}
