import { newId, Params } from "@/lib/screening/sql/statements";
import { deviceIdentifiers, deviceUpsert } from "@/lib/screening/sql/device-upsert";
import { IdentifierRows } from "@/lib/screening/sql/identifier-rows";
import { identifiersOfUser, normalizeIdentifier } from "@/lib/users/index-identifiers";
import { toStoredStatus, type TUser } from "@/lib/users/schemas";
import { once } from "@/lib/screening/sql/statements";

/** What a user screening or save reads of the stored user. */
export type TStoredUser = { status: string; createdAt: number };

/**
 * The one writer of a user, as CTEs of one statement (`u` RETURNING one row when applied; the caller ends the
 * statement with abortUnlessWritten(["u"])): the user inserted, or updated while its status is still
 * `stored.status`; its status change; its phone and email links replaced; its device and the
 * device's links. `outcome` adds columns to the user's insert or update.
 */
export function userUpsertCtes(
  p: Params,
  {
    clientId,
    body,
    source,
    stored,
    now,
    outcome,
    withDevice = true,
  }: {
    clientId: string;
    body: TUser;
    source: string;
    stored: TStoredUser | null;
    now: Date;
    outcome: Array<[string, string]>;
    /** false: the caller upserts `body.userDevice` (and links it) in the same statement itself. */
    withDevice?: boolean;
  },
): string[] {
  const c = p.add(clientId, "text");
  const u = p.add(body.id, "text");
  const src = once(() => p.add(source, "text"));
  const at = p.add(now, "timestamptz");
  const requested = body.status ? toStoredStatus(body.status) : undefined;
  const status = requested ?? stored?.status ?? "active";
  const fields: Array<[string, string]> = [
    ["firstName", p.add(body.firstName ?? null, "text")],
    ["lastName", p.add(body.lastName ?? null, "text")],
    ["email", p.add(body.email?.email ?? null, "text")],
    ["phone", p.add(body.phone?.phone ?? null, "text")],
    ["data", p.json(body)],
    ["status", p.add(status, "text")],
    ["updatedAt", at],
    ...outcome,
  ];
  const ctes: string[] = [];
  if (!stored) {
    // a concurrent creation makes this plain INSERT a unique violation: retried from the read
    ctes.push(
      `u AS (INSERT INTO "users" ("clientId", "id", "createdAt", ${fields.map(([k]) => `"${k}"`).join(", ")})
         VALUES (${c}, ${u}, ${p.add(new Date(body.timestamp), "timestamptz")}, ${fields.map(([, v]) => v).join(", ")})
         RETURNING 1)`,
      `sc AS (INSERT INTO "user_status_changes" ("id", "clientId", "userId", "fromStatus", "toStatus", "source", "details")
         VALUES (${p.add(newId(), "text")}, ${c}, ${u}, NULL, ${p.add(status, "text")}, ${src()}, '{"created":true}'::jsonb))`,
    );
  } else {
    const changed = status !== stored.status;
    if (changed) fields.push(["statusReason", "NULL"]);
    const from = p.add(stored.status, "text");
    ctes.push(
      `u AS (UPDATE "users" SET ${fields.map(([k, v]) => `"${k}" = ${v}`).join(", ")}
         WHERE "clientId" = ${c} AND "id" = ${u} AND "status" = ${from} RETURNING 1)`,
    );
    if (changed)
      ctes.push(
        `sc AS (INSERT INTO "user_status_changes" ("id", "clientId", "userId", "fromStatus", "toStatus", "source")
           VALUES (${p.add(newId(), "text")}, ${c}, ${u}, ${from}, ${p.add(status, "text")}, ${src()}))`,
      );
  }

  // the phone and email links replaced: links no longer sent are deleted, links sent again take the new
  // source (as a delete and re-insert would), new ones are inserted below. No row is written twice.
  const links = new Map<string, [string, string]>();
  for (const { kind, value } of identifiersOfUser(body)) {
    const normalized = normalizeIdentifier(kind, value);
    if (normalized !== "") links.set(`${kind}\u0000${normalized}`, [kind, normalized]);
  }
  const kept = links.size
    ? `(VALUES ${p.rows(
        [...links.values()].map(([kind, value]) => [
          [kind, "text"],
          [value, "text"],
        ]),
      )}) AS k("kind", "value")`
    : null;
  ctes.push(
    `ud AS (DELETE FROM "user_identifiers" WHERE "clientId" = ${c} AND "userId" = ${u} AND "kind" IN ('phone', 'email')
       ${kept ? `AND ("kind", "value") NOT IN (SELECT k."kind", k."value" FROM ${kept})` : ""})`,
  );
  if (kept)
    ctes.push(
      `uk AS (UPDATE "user_identifiers" i SET "source" = ${src()}, "createdAt" = now() FROM ${kept}
         WHERE i."clientId" = ${c} AND i."userId" = ${u} AND i."kind" = k."kind" AND i."value" = k."value")`,
    );
  const identifiers = new IdentifierRows();
  identifiers.add(body.id, identifiersOfUser(body), source);
  if (body.userDevice && withDevice) {
    ctes.push(
      `dv AS (${deviceUpsert(p, { clientId, userId: body.id, device: body.userDevice, seenAt: now })})`,
    );
    identifiers.add(body.id, deviceIdentifiers(body.userDevice), source);
  }
  const identifierInsert = identifiers.cte(p, clientId);
  if (identifierInsert) ctes.push(`ui AS (${identifierInsert})`);
  return ctes;
}
