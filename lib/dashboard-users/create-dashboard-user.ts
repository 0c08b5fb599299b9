import bcrypt from "bcryptjs";
import { z } from "zod";
import { prisma } from "@/lib/db";

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

export async function createDashboardUser(input: TCreateDashboardUser): Promise<{ userId: string }> {
  const data = ZCreateDashboardUser.parse(input);
  const client = await prisma.client.findUnique({ where: { id: data.clientId }, select: { id: true } });
  if (!client) throw new DashboardUserError(`Client ${data.clientId} does not exist`);
  const taken = await prisma.dashboardUser.findUnique({ where: { email: data.email }, select: { id: true } });
  if (taken) throw new DashboardUserError(`A dashboard user with email ${data.email} already exists`);
  const user = await prisma.dashboardUser.create({
    data: {
      clientId: data.clientId,
      email: data.email,
      name: data.name ?? null,
      role: data.role,
      passwordHash: await bcrypt.hash(data.password, 12),
    },
    select: { id: true },
  });
  return { userId: user.id };
}

export async function verifyDashboardPassword(
  email: string,
  password: string,
): Promise<{
  id: string;
  clientId: string;
  email: string;
  name: string | null;
  role: TDashboardRole;
} | null> {
  const user = await prisma.dashboardUser.findUnique({ where: { email: email.trim().toLowerCase() } });
  // Compare against a fixed hash when the user is unknown, so timing does not reveal which emails exist.
  const hash = user?.passwordHash ?? "$2b$12$C6UzMDM.H6dfI/f/IKcEeO5fbm4.5p0G5gG0yO5x6eZ3lV6mVb3Iu";
  const ok = await bcrypt.compare(password, hash);
  if (!user || !ok || user.disabledAt) return null;
  return { id: user.id, clientId: user.clientId, email: user.email, name: user.name, role: user.role };
}
