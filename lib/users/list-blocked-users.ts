import { prisma } from "@/lib/db";

export const BLOCKED_USERS_DEFAULT_LIMIT = 100;

export type TBlockedUsersPage = {
  users: { id: string; status: "blocked"; updatedAt: number }[];
  total: number;
  cursor: string | null;
};

/**
 * GET /v1/users/blocked: keyset pagination by user id, `start` exclusive. Users blocked or unblocked
 * while a client pages through appear or disappear, but no user is ever returned twice or skipped
 * for having moved, because the order does not depend on when the status changed.
 */
export async function listBlockedUsers({
  clientId,
  start,
  limit = BLOCKED_USERS_DEFAULT_LIMIT,
}: {
  clientId: string;
  start?: string;
  limit?: number;
}): Promise<TBlockedUsersPage> {
  const where = { clientId, status: "blocked" };
  const [rows, total] = await Promise.all([
    prisma.user.findMany({
      where: start ? { ...where, id: { gt: start } } : where,
      orderBy: { id: "asc" },
      take: limit,
      select: { id: true, updatedAt: true },
    }),
    prisma.user.count({ where }),
  ]);
  return {
    users: rows.map((r) => ({ id: r.id, status: "blocked", updatedAt: r.updatedAt.getTime() })),
    total,
    cursor: rows.at(-1)?.id ?? null,
  };
}
