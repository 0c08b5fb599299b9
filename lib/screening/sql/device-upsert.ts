import type { Params } from "@/lib/screening/sql/statements";
import type { TIdentifier } from "@/lib/users/index-identifiers";
import type { TUserDevice } from "@/lib/users/schemas";

export function deviceIdentifiers(device: TUserDevice): TIdentifier[] {
  const out: TIdentifier[] = [];
  if (device.ipAddress) out.push({ kind: "ipAddress", value: device.ipAddress });
  if (device.fingerprint) out.push({ kind: "deviceFingerprint", value: device.fingerprint });
  return out;
}

/**
 * The one writer of a device, as a statement fragment: first seen kept, the rest follows the latest
 * sighting. `earlier`: the same device seen just before in the same request (an inline user's device
 * that is also the transaction's); its fingerprint and IP address stand in for those `device` leaves
 * out, as two upserts in a row would leave them (one statement cannot upsert one row twice).
 */
export function deviceUpsert(
  params: Params,
  {
    clientId,
    userId,
    device,
    seenAt,
    earlier,
  }: { clientId: string; userId: string; device: TUserDevice; seenAt: Date; earlier?: TUserDevice },
): string {
  const fingerprint = device.fingerprint ?? earlier?.fingerprint;
  const ipAddress = device.ipAddress ?? earlier?.ipAddress;
  const keepIfUnset = (column: string, value: unknown) =>
    value === undefined ? `"${column}" = "devices"."${column}"` : `"${column}" = EXCLUDED."${column}"`;
  return (
    `INSERT INTO "devices" ("clientId", "id", "userId", "fingerprint", "ipAddress", "data", "firstSeenAt", "lastSeenAt") ` +
    `VALUES (${params.add(clientId, "text")}, ${params.add(device.id, "text")}, ${params.add(userId, "text")}, ` +
    `${params.add(fingerprint ?? null, "text")}, ${params.add(ipAddress ?? null, "text")}, ` +
    `${params.json(device)}, ${params.add(seenAt, "timestamptz")}, ${params.add(seenAt, "timestamptz")}) ` +
    `ON CONFLICT ("clientId", "id") DO UPDATE SET "userId" = EXCLUDED."userId", ` +
    `${keepIfUnset("fingerprint", fingerprint)}, ${keepIfUnset("ipAddress", ipAddress)}, ` +
    `"data" = EXCLUDED."data", "lastSeenAt" = EXCLUDED."lastSeenAt"`
  );
}
