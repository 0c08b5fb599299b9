import { prisma } from "@/lib/db";
import { saveUserHot } from "@/lib/screening/hot/screen-party";
import type { TUser } from "@/lib/users/schemas";
import { upsertUser } from "@/lib/users/upsert-user";

/** POST /v1/user: create or update the user; no screening. Raw SQL, two statements (lib/screening/hot). */
export async function saveUser(args: {
  clientId: string;
  user: TUser;
}): Promise<{ id: string; created: boolean }> {
  return saveUserHot(args);
}

/** The Prisma path it replaced, kept callable for the equivalence test. */
export async function saveUserPrisma({
  clientId,
  user,
}: {
  clientId: string;
  user: TUser;
}): Promise<{ id: string; created: boolean }> {
  const result = await prisma.$transaction((tx) => upsertUser(tx, { clientId, user, source: "api" }));
  return { id: user.id, created: result.created };
}
