import { describe, expect, it } from "vitest";
import { createTeamMember } from "@/lib/admin/team";
import type { TSessionUser } from "@/lib/auth/session";
import {
  createDashboardUser,
  DashboardUserError,
  EMAIL_UNAVAILABLE,
} from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { createTestClient } from "@/tests/factories";

// Emails are unique across clients (sign-in names no client). An admin adding a member whose email another
// client uses learns only that this email cannot be used: not that it exists, nor whose it is.
describe("adding a team member", () => {
  it("says nothing about another client's users", async () => {
    const a = await createTestClient({ name: "Tenant A" });
    const b = await createTestClient({ name: "Tenant B" });
    await createDashboardUser({
      clientId: a.clientId,
      email: "taken@a.test",
      password: "long-enough-1",
      role: "reviewer",
    });
    const { userId } = await createDashboardUser({
      clientId: b.clientId,
      email: "admin@b.test",
      password: "long-enough-1",
      role: "admin",
    });
    const adminB: TSessionUser = {
      id: userId,
      clientId: b.clientId,
      email: "admin@b.test",
      name: null,
      role: "admin",
    };
    const input = { email: "taken@a.test", password: "long-enough-2", role: "admin" as const };
    const refused = await createTeamMember(adminB, input).catch((e: unknown) => e);
    expect(refused, (refused as Error).message.slice(-300)).toBeInstanceOf(DashboardUserError);
    expect((refused as Error).message).toBe(EMAIL_UNAVAILABLE);
    expect((refused as Error).message).not.toMatch(/taken@a\\.test|exist|Tenant A/);
    expect(await prisma.dashboardUser.count({ where: { clientId: b.clientId } })).toBe(1);

    // the admin's own team: saying so tells them nothing new
    const own = await createTeamMember(adminB, { ...input, email: "admin@b.test" }).catch((e: unknown) => e);
    expect((own as Error).message).toMatch(/already exists in this team/);
  });
});
