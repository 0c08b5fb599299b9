import { z } from "zod";
import { prisma } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { STORED_USER_STATUSES } from "@/lib/users/schemas";

// Dashboard users list (not part of /v1): search by id, name or email, status filter, keyset by id.

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

/**
 * Users ordered by id (the primary key, or (clientId, status, id) with a status filter), `after` the
 * last id of the previous page. A search matches the exact id or a substring of id, name or email.
 */
export async function listUsers({
  clientId,
  query,
}: {
  clientId: string;
  query: TListUsersQuery;
}): Promise<{ users: TUserListItem[]; nextCursor: string | null }> {
  const q = query.q;
  const where: Prisma.UserWhereInput = {
    clientId,
    ...(query.status && { status: query.status }),
    ...(query.after && { id: { gt: query.after } }),
    ...(q && {
      OR: [
        { id: q },
        { id: { contains: q, mode: "insensitive" } },
        { email: { contains: q, mode: "insensitive" } },
        { firstName: { contains: q, mode: "insensitive" } },
        { lastName: { contains: q, mode: "insensitive" } },
      ],
    }),
  };
  const rows = await prisma.user.findMany({
    where,
    orderBy: { id: "asc" },
    take: query.limit + 1,
    select: {
      id: true,
      firstName: true,
      lastName: true,
      email: true,
      phone: true,
      status: true,
      riskLevel: true,
      createdAt: true,
      updatedAt: true,
    },
  });
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
