import type { Params } from "@/lib/screening/sql/statements";
import { normalizeIdentifier, type TIdentifier } from "@/lib/users/index-identifiers";

// The one writer of identifier links (user_identifiers, the attribute-blocking index) and of their
// uses (user_identifier_uses), as CTEs of a screening's write.

export type TIdentifierRow = { kind: string; value: string; userId: string; source: string };

/** The identifiers as stored: normalised, empty ones dropped, one per (kind, value). */
function normalized(identifiers: TIdentifier[]): Array<{ kind: string; value: string }> {
  const out = new Map<string, { kind: string; value: string }>();
  for (const { kind, value } of identifiers) {
    const v = normalizeIdentifier(kind, value);
    if (v !== "" && !out.has(`${kind}\u0000${v}`)) out.set(`${kind}\u0000${v}`, { kind, value: v });
  }
  return [...out.values()];
}

/** Identifier rows to insert, normalised and deduplicated (the first source wins, as sequential inserts). */
export class IdentifierRows {
  private readonly rows = new Map<string, TIdentifierRow>();
  add(userId: string, identifiers: TIdentifier[], source: string): void {
    for (const { kind, value } of normalized(identifiers)) {
      const key = `${kind}\u0000${value}\u0000${userId}`;
      if (!this.rows.has(key)) this.rows.set(key, { kind, value, userId, source });
    }
  }
  /** A CTE inserting them (ON CONFLICT DO NOTHING), or null when there are none. */
  cte(params: Params, clientId: string): string | null {
    if (this.rows.size === 0) return null;
    const values = params.rows(
      [...this.rows.values()].map((r) => [
        [clientId, "text"],
        [r.kind, "text"],
        [r.value, "text"],
        [r.userId, "text"],
        [r.source, "text"],
      ]),
    );
    return `INSERT INTO "user_identifiers" ("clientId", "kind", "value", "userId", "source") VALUES ${values} ON CONFLICT DO NOTHING`;
  }
  /**
   * A CTE counting one use, at `usedAt`, of each of `userId`'s identifiers (user_identifier_uses:
   * since when a value is shared, windowed link counts), or null when there are none.
   */
  usesCte(params: Params, clientId: string, userId: string, usedAt: string): string | null {
    const mine = [...this.rows.values()].filter((r) => r.userId === userId);
    if (mine.length === 0) return null;
    const at = params.add(usedAt, "timestamptz");
    const values = params.rows(
      mine.map((r) => [
        [r.kind, "text"],
        [r.value, "text"],
      ]),
    );
    return `INSERT INTO "user_identifier_uses" AS x ("clientId", "kind", "value", "userId", "firstUsedAt", "lastUsedAt", "transactionCount")
       SELECT ${params.add(clientId, "text")}, v."kind", v."value", ${params.add(userId, "text")}, ${at}, ${at}, 1
       FROM (VALUES ${values}) AS v("kind", "value")
       ON CONFLICT ("clientId", "kind", "value", "userId") DO UPDATE SET
         "firstUsedAt" = least(x."firstUsedAt", EXCLUDED."firstUsedAt"),
         "lastUsedAt" = greatest(x."lastUsedAt", EXCLUDED."lastUsedAt"),
         "transactionCount" = x."transactionCount" + 1`;
  }
}

/**
 * A CTE inserting `identifiers` for the user of the row that the CTE `from` returned (its "userId";
 * nothing when null), or null when there are none: for a write that learns its user from the row it
 * updates.
 */
export function rowUserIdentifiersCte(
  params: Params,
  {
    clientId,
    identifiers,
    source,
    from,
  }: { clientId: string; identifiers: TIdentifier[]; source: string; from: string },
): string | null {
  const rows = normalized(identifiers);
  if (rows.length === 0) return null;
  const c = params.add(clientId, "text");
  const values = params.rows(
    rows.map((r) => [
      [r.kind, "text"],
      [r.value, "text"],
    ]),
  );
  return `INSERT INTO "user_identifiers" ("clientId", "kind", "value", "userId", "source")
       SELECT ${c}, v."kind", v."value", ${from}."userId", ${params.add(source, "text")}
       FROM ${from}, (VALUES ${values}) AS v("kind", "value")
       WHERE ${from}."userId" IS NOT NULL ON CONFLICT DO NOTHING`;
}
