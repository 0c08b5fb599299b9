import { pgPool } from "@/lib/db";
import { notFound } from "@/lib/errors/domain-error";
import { abortUnlessWritten, isAbortedByGuard } from "@/lib/screening/sql/guarded-write";
import { Params } from "@/lib/screening/sql/statements";
import { deviceIdentifiers, deviceUpsert } from "@/lib/screening/sql/device-upsert";
import { IdentifierRows } from "@/lib/screening/sql/identifier-rows";
import type { TAddUserDevice } from "@/lib/users/schemas";

// POST /v1/user/device: ONE statement after the API key read. The device (source "device"): first
// seen kept, the rest follows this sighting, the IP address and fingerprint linked to the user
// (tests/integration/user-device-equivalence.test.ts).

/** Answers 404 when the user is unknown (then nothing is written: the statement divides by zero). */
export async function addUserDevice({
  clientId,
  userId,
  device,
}: { clientId: string } & TAddUserDevice): Promise<{ id: string }> {
  const p = new Params();
  const identifiers = new IdentifierRows();
  identifiers.add(userId, deviceIdentifiers(device), "device");
  const ctes = [
    // the user must exist (KEY SHARE: it cannot be deleted before this statement commits)
    `usr AS (SELECT 1 FROM "users" WHERE "clientId" = ${p.add(clientId, "text")} AND "id" = ${p.add(userId, "text")} FOR KEY SHARE)`,
    `dv AS (${deviceUpsert(p, { clientId, userId, device, seenAt: new Date() })})`,
  ];
  const identifierInsert = identifiers.cte(p, clientId);
  if (identifierInsert) ctes.push(`ui AS (${identifierInsert})`);
  try {
    // no user: a division by zero aborts the statement as a whole (nothing written)
    await pgPool().query(`WITH ${ctes.join(",\n")} ${abortUnlessWritten(["usr"])}`, p.values);
  } catch (err) {
    if (isAbortedByGuard(err)) throw notFound("/userId", "User not found");
    throw err;
  }
  return { id: device.id };
}
