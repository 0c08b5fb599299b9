import { prisma } from "@/lib/db";
import type { TUser } from "@/lib/users/schemas";
import { upsertUser } from "@/lib/users/upsert-user";

/** POST /v1/user: create or update the user; no screening. */
export async function saveUser({
  clientId,
  user,
}: {
  clientId: string;
  user: TUser;
}): Promise<{ id: string; created: boolean }> {
  const result = await prisma.$transaction((tx) => upsertUser(tx, { clientId, user, source: "api" }));
  return { id: user.id, created: result.created };
}
