import { z } from "zod";
import { prisma } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { STORED_USER_STATUSES } from "@/lib/users/schemas";

// Dashboard users list (not part of /v1): search by id, name or email prefix, status filter, keyset by id.

const emptyAsUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const USERS_MAX_LIMIT = 100;

export const ZListUsersQuery = z.object({
  q: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
  status: z.preprocess(emptyAsUndefined, z.enum(STORED_USER_STATUSES).optional()),
  after: z.preprocess(emptyAsUndefined, z.string().max(500).optional()),
  limit: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(USERS_MAX_LIMIT).default(50)),
});
export type TListUsersQuery = z.infer<typeof ZListUsersQuery>;

export type TUserListItem = {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  status: string;
  riskLevel: string | null;
  createdAt: number;
  updatedAt: number;
};

/** LIKE pattern for "starts with", the user's %, _ and \\ taken literally. */
function prefixPattern(q: string): string {
  return `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type TUserRow = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  status: string;
  riskLevel: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * Users ordered by id (the primary key, or (clientId, status, id) with a status filter), `after` the
 * last id of the previous page. A search matches a case-insensitive prefix of the id, the email, the
 * first or the last name: each arm has its own expression index (migration dashboard_indexes), so a
 * search never scans the client's users.
 */
export async function listUsers({
  clientId,
  query,
}: {
  clientId: string;
  query: TListUsersQuery;
}): Promise<{ users: TUserListItem[]; nextCursor: string | null }> {
  const conditions: Prisma.Sql[] = [Prisma.sql`"clientId" = ${clientId}`];
  if (query.status) conditions.push(Prisma.sql`status = ${query.status}`);
  if (query.after) conditions.push(Prisma.sql`id > ${query.after}`);
  if (query.q) {
    const p = prefixPattern(query.q);
    conditions.push(Prisma.sql`(id = ${query.q} OR lower(id) LIKE ${p} OR lower(email) LIKE ${p}
      OR lower("firstName") LIKE ${p} OR lower("lastName") LIKE ${p})`);
  }
  const rows = await prisma.$queryRaw<TUserRow[]>(Prisma.sql`
    SELECT id, "firstName", "lastName", email, phone, status, "riskLevel", "createdAt", "updatedAt"
    FROM users WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY id LIMIT ${query.limit + 1}`);
  const page = rows.slice(0, query.limit);
  return {
    nextCursor: rows.length > query.limit ? (page[page.length - 1]?.id ?? null) : null,
    users: page.map((u) => ({
      id: u.id,
      name: [u.firstName, u.lastName].filter(Boolean).join(" ") || null,
      email: u.email,
      phone: u.phone,
      status: u.status,
      riskLevel: u.riskLevel,
      createdAt: u.createdAt.getTime(),
      updatedAt: u.updatedAt.getTime(),
    })),
  };
}
