// transaction.baseAmount, computed the same way by every screening path (the screenings, the test oracle,
// updates with monitoring): from the cached base currency and rate table, never a query when warm.
import type { TClientContext } from "@/lib/clients/client-context";
import { pgPool } from "@/lib/db";
import { fxRates } from "@/lib/fx/fx-cache";
import { baseAmountOf, type TFxConversion } from "@/lib/fx/rates";
import { screeningConfig } from "@/lib/screening/screening-config";

type TConvertible = { currencyCode: string; amount: number; timestamp: number };

/**
 * The client's converter, read before a database transaction opens (the embedded database serves
 * one connection at a time, so the cache must not load from the pool inside one).
 */
export async function baseAmountConverter(
  client: TClientContext,
): Promise<(t: TConvertible) => TFxConversion> {
  const pool = pgPool();
  const [config, table] = await Promise.all([screeningConfig(pool, client), fxRates(pool, client)]);
  return (transaction) => baseAmountOf(table, config.baseCurrency, transaction);
}

export async function transactionBaseAmount(
  client: TClientContext,
  transaction: TConvertible,
): Promise<TFxConversion> {
  return (await baseAmountConverter(client))(transaction);
}

/**
 * The transaction as rules see it: the request plus baseAmount when a rate is known, and never a
 * baseAmount of the caller's own (the request schema drops unknown fields; stored data could hold one).
 */
export function withBaseAmount<T extends object>(
  transaction: T,
  fx: TFxConversion,
): T & { baseAmount?: number } {
  if (fx.baseAmount !== undefined) return { ...transaction, baseAmount: fx.baseAmount };
  if (!("baseAmount" in transaction)) return transaction;
  const { baseAmount: _sent, ...rest } = transaction as T & { baseAmount?: unknown };
  return rest as T;
}
