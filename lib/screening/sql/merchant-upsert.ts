import { canonicalJson } from "@/lib/json/canonical-json";
import { keepFirstTimestamp } from "@/lib/merchants/keep-first-timestamp";
import type { TMerchant } from "@/lib/merchants/schemas";
import { newId, Params } from "@/lib/screening/sql/statements";
import { asStored, once } from "@/lib/screening/sql/statements";

/** What a merchant screening or save reads of the stored merchant. */
export type TStoredMerchant = { data: unknown; status: string | null; createdAt: number; dataHash: string };

/** What the merchant's upsert leaves stored, from the row read before it. */
export function mergedMerchant(body: TMerchant, stored: TStoredMerchant | null) {
  if (!stored) {
    const createdAt = new Date(body.timestamp);
    return { kind: "new" as const, data: asStored(body), status: body.status ?? null, createdAt };
  }
  const createdAt = new Date(stored.createdAt);
  const kept = keepFirstTimestamp(body, createdAt);
  // an identical resend (a retried request) is not a correction and leaves no history
  if (canonicalJson(stored.data) === canonicalJson(kept))
    return { kind: "same" as const, data: stored.data, status: stored.status, createdAt, kept };
  return { kind: "changed" as const, data: asStored(kept), status: body.status ?? null, createdAt, kept };
}

/**
 * The one writer of a merchant record, as CTEs of the caller's statement (`m` returns one row when
 * applied; the caller ends the statement with abortUnlessWritten(["m"])). A new merchant is inserted (a
 * concurrent creation is a unique violation: retried from the read); a changed one is updated while it
 * holds the body and status read, its replaced body appended to merchant_versions; an identical resend
 * writes only `outcome` (or, without one, locks the row while it still holds what was read). The stored
 * body keeps the first timestamp (mergedMerchant).
 */
export function merchantUpsertCtes(
  p: Params,
  {
    clientId,
    merchant,
    stored,
    now,
    outcome = [],
  }: {
    clientId: string;
    merchant: TMerchant;
    stored: TStoredMerchant | null;
    now: Date;
    outcome?: Array<[string, string]>;
  },
): string[] {
  const merged = mergedMerchant(merchant, stored);
  const c = p.add(clientId, "text");
  const m = p.add(merchant.id, "text");
  const at = once(() => p.add(now, "timestamptz"));
  const fields: Array<[string, string]> =
    merged.kind === "same"
      ? [...outcome]
      : [
          ["name", p.add(merchant.name, "text")],
          ["status", p.add(merchant.status ?? null, "text")],
          ["organizationId", p.add(merchant.organizationId ?? null, "text")],
          ["data", p.json(merged.kind === "new" ? merchant : merged.kept)],
          ["updatedAt", at()],
          ...outcome,
        ];
  if (merged.kind === "new")
    return [
      `m AS (INSERT INTO "merchants" ("clientId", "id", "createdAt", ${fields.map(([k]) => `"${k}"`).join(", ")})
         VALUES (${c}, ${m}, ${p.add(merged.createdAt, "timestamptz")}, ${fields.map(([, v]) => v).join(", ")})
         RETURNING 1)`,
    ];
  const unchanged = `"clientId" = ${c} AND "id" = ${m} AND md5("data"::text) = ${p.add(stored!.dataHash, "text")}
           AND "status" IS NOT DISTINCT FROM ${p.add(stored!.status, "text")}`;
  if (fields.length === 0) return [`m AS (SELECT 1 FROM "merchants" WHERE ${unchanged} FOR UPDATE)`];
  const ctes = [
    `m AS (UPDATE "merchants" SET ${fields.map(([k, v]) => `"${k}" = ${v}`).join(", ")}
       WHERE ${unchanged} RETURNING 1)`,
  ];
  if (merged.kind === "changed")
    ctes.push(
      `mv AS (INSERT INTO "merchant_versions" ("id", "clientId", "merchantId", "data", "createdAt")
         SELECT ${p.add(newId(), "text")}, "clientId", "id", "data", ${at()}
         FROM "merchants" WHERE "clientId" = ${c} AND "id" = ${m})`,
    );
  return ctes;
}
