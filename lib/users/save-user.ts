import { pgPool } from "@/lib/db";
import { abortUnlessWritten, retryOnConflict } from "@/lib/screening/sql/guarded-write";
import { Params } from "@/lib/screening/sql/statements";
import type { TUser } from "@/lib/users/schemas";
import { userUpsertCtes, type TStoredUser } from "@/lib/screening/sql/user-upsert";

/** POST /v1/user: creates or updates the user without screening it; one read, one write statement. */
export async function saveUser({
  clientId,
  user,
  source = "api",
}: {
  clientId: string;
  user: TUser;
  /** Recorded on the user's status change (user_status_changes.source). */
  source?: string;
}): Promise<{ id: string; created: boolean }> {
  const pool = pgPool();
  return retryOnConflict(async () => {
    const { rows } = await pool.query<TStoredUser>(
      `SELECT "status", (extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAt"
       FROM "users" WHERE "clientId" = $1 AND "id" = $2`,
      [clientId, user.id],
    );
    const stored = rows[0] ?? null;
    const p = new Params();
    const ctes = userUpsertCtes(p, {
      clientId,
      body: user,
      source,
      stored,
      now: new Date(),
      outcome: [],
    });
    await pool.query(`WITH ${ctes.join(",\n")}\n${abortUnlessWritten(["u"])}`, p.values);
    return { id: user.id, created: !stored };
  });
}
