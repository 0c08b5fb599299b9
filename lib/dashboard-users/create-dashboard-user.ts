import bcrypt from "bcryptjs";
import { z } from "zod";
import { prisma, type Tx } from "@/lib/db";

export const ZDashboardRole = z.enum(["admin", "reviewer", "reporting_officer"]);
export type TDashboardRole = z.infer<typeof ZDashboardRole>;

export const ZCreateDashboardUser = z.object({
  clientId: z.string().min(1),
  email: z.string().trim().toLowerCase().email(),
  password: z.string().min(8, "Password must have at least 8 characters"),
  role: ZDashboardRole,
  name: z.string().trim().min(1).optional(),
});
export type TCreateDashboardUser = z.input<typeof ZCreateDashboardUser>;

export class DashboardUserError extends Error {}

export type TPreparedDashboardUser = Omit<z.infer<typeof ZCreateDashboardUser>, "password"> & {
  passwordHash: string;
};

/**
 * Validates and hashes, touching no database. Hashing takes a quarter of a second (seconds on a busy
 * machine): done before a transaction opens, so none waits on it or expires during it.
 */
export async function prepareDashboardUser(input: TCreateDashboardUser): Promise<TPreparedDashboardUser> {
  const { password, ...data } = ZCreateDashboardUser.parse(input);
  return { ...data, passwordHash: await bcrypt.hash(password, 12) };
}

/** `db`: a transaction when the caller writes more (an audit row) that must commit with the user. */
export async function insertDashboardUser(
  data: TPreparedDashboardUser,
  db: Tx = prisma,
): Promise<{ userId: string }> {
  const client = await db.client.findUnique({ where: { id: data.clientId }, select: { id: true } });
  if (!client) throw new DashboardUserError(`Client ${data.clientId} does not exist`);
  // An email is unique within a client only: another client's users change nothing here, so the answer
  // for an email another client uses is the answer for a fresh one.
  const taken = await db.dashboardUser.findUnique({
    where: { clientId_email: { clientId: data.clientId, email: data.email } },
    select: { id: true },
  });
  if (taken)
    throw new DashboardUserError(`A dashboard user with email ${data.email} already exists in this team`);
  const user = await db.dashboardUser.create({
    data: {
      clientId: data.clientId,
      email: data.email,
      name: data.name ?? null,
      role: data.role,
      passwordHash: data.passwordHash,
    },
    select: { id: true },
  });
  return { userId: user.id };
}

export async function createDashboardUser(
  input: TCreateDashboardUser,
  db: Tx = prisma,
): Promise<{ userId: string }> {
  return insertDashboardUser(await prepareDashboardUser(input), db);
}
