import type { Tx } from "@/lib/db";
import type { TMerchant } from "@/lib/merchants/schemas";
import { canonicalJson } from "@/lib/json/canonical-json";
import { keepFirstTimestamp } from "@/lib/merchants/keep-first-timestamp";

/**
 * Creates or corrects a merchant record inside the caller's transaction (interface "Merchant rules"):
 * the first `timestamp` seen for the id becomes `createdAt` and never changes (the stored body keeps
 * it as `timestamp` too); a later request replaces every other field, and the values it replaces
 * are appended to merchant_versions.
 */
export async function upsertMerchant(
  tx: Tx,
  { clientId, merchant }: { clientId: string; merchant: TMerchant },
): Promise<{ created: boolean }> {
  const fields = {
    name: merchant.name,
    status: merchant.status ?? null,
    organizationId: merchant.organizationId ?? null,
    data: merchant,
  };
  const now = new Date();
  const inserted = await tx.merchant.createMany({
    data: [{ clientId, id: merchant.id, ...fields, createdAt: new Date(merchant.timestamp), updatedAt: now }],
    skipDuplicates: true,
  });
  if (inserted.count === 1) return { created: true };

  const rows = await tx.$queryRaw<{ data: unknown; createdAt: Date }[]>`
    SELECT data, "createdAt" FROM merchants WHERE "clientId" = ${clientId} AND id = ${merchant.id} FOR UPDATE`;
  const previous = rows[0];
  if (!previous) throw new Error(`merchant ${merchant.id} vanished during upsert`);
  const kept = keepFirstTimestamp(merchant, previous.createdAt);
  // An identical resend (a retried request) is not a correction and leaves no history.
  if (canonicalJson(previous.data) === canonicalJson(kept)) return { created: false };

  await tx.merchantVersion.create({
    data: { clientId, merchantId: merchant.id, data: previous.data as object, createdAt: now },
  });
  await tx.merchant.update({
    where: { clientId_id: { clientId, id: merchant.id } },
    data: { ...fields, data: kept, updatedAt: now },
  });
  return { created: false };
}
