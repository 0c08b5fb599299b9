import { pgPool } from "@/lib/db";
import type { TMerchant } from "@/lib/merchants/schemas";
import { abortUnlessWritten, retryOnConflict } from "@/lib/screening/sql/guarded-write";
import { Params } from "@/lib/screening/sql/statements";
import { merchantUpsertCtes, type TStoredMerchant } from "@/lib/screening/sql/merchant-upsert";

/**
 * A merchant record without a screening (demo data, a report's inline merchant): one read of the
 * stored row, one write (merchantUpsertCtes), from the read again when the write was aborted.
 */
export async function saveMerchant({
  clientId,
  merchant,
}: {
  clientId: string;
  merchant: TMerchant;
}): Promise<{ id: string; created: boolean }> {
  const pool = pgPool();
  return retryOnConflict(async () => {
    const { rows } = await pool.query<TStoredMerchant>(
      `SELECT "data", "status", (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAt",
         md5("data"::text) AS "dataHash"
       FROM "merchants" WHERE "clientId" = $1 AND "id" = $2`,
      [clientId, merchant.id],
    );
    const stored = rows[0] ?? null;
    const p = new Params();
    const ctes = merchantUpsertCtes(p, { clientId, merchant, stored, now: new Date() });
    await pool.query(`WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["m"])}`, p.values);
    return { id: merchant.id, created: !stored };
  });
}
