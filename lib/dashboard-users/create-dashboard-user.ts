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

/** `db`: a transaction when the caller writes more (an audit row) that must commit with the user. */
export async function createDashboardUser(
  input: TCreateDashboardUser,
  db: Tx = prisma,
): Promise<{ userId: string }> {
  const data = ZCreateDashboardUser.parse(input);
  // Hashing takes a quarter of a second: before any query, so no transaction waits on it.
  const passwordHash = await bcrypt.hash(data.password, 12);
  const client = await db.client.findUnique({ where: { id: data.clientId }, select: { id: true } });
  if (!client) throw new DashboardUserError(`Client ${data.clientId} does not exist`);
  const taken = await db.dashboardUser.findUnique({ where: { email: data.email }, select: { id: true } });
  if (taken) throw new DashboardUserError(`A dashboard user with email ${data.email} already exists`);
  const user = await db.dashboardUser.create({
    data: {
      clientId: data.clientId,
      email: data.email,
      name: data.name ?? null,
      role: data.role,
      passwordHash,
    },
    select: { id: true },
  });
  return { userId: user.id };
}
