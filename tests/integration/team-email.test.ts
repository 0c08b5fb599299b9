import { describe, expect, it } from "vitest";
import { createTeamMember } from "@/lib/admin/team";
import type { TSessionUser } from "@/lib/auth/session";
import { SignInRefused, signInWithPassword } from "@/lib/auth/sign-in";
import { createDashboardUser, DashboardUserError } from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { createTestClient } from "@/tests/factories";

// A dashboard user's email is unique within its client. An admin adding a member whose email another client
// uses gets exactly the answer for a fresh email; sign-in tells the accounts apart by password, and asks for
// the organisation when one email and password open several.
describe("one email in two clients", () => {
  // each test gets its own email and client names (the database is shared by the file's tests)
  let shared = "";
  let tenant = "";
  async function twoTenants() {
    tenant = `${Math.random().toString(36).slice(2, 8)}`;
    shared = `shared-${tenant}@people.test`;
    const a = await createTestClient({ name: `Tenant A ${tenant}` });
    const b = await createTestClient({ name: `Tenant B ${tenant}` });
    const { userId: inA } = await createDashboardUser({
      clientId: a.clientId,
      email: shared,
      password: "password-of-a-1",
      role: "reviewer",
    });
    const { userId: adminId } = await createDashboardUser({
      clientId: b.clientId,
      email: "admin@b.test",
      password: "long-enough-1",
      role: "admin",
    });
    const adminB: TSessionUser = {
      id: adminId,
      clientId: b.clientId,
      email: "admin@b.test",
      name: null,
      role: "admin",
    };
    return { a, b, inA, adminB };
  }

  it("adding a member answers the same for an email another client uses as for a fresh one", async () => {
    const { a, b, adminB } = await twoTenants();
    const fresh = await createTeamMember(adminB, {
      email: "fresh@people.test",
      password: "password-of-b-1",
      role: "reviewer",
    });
    const again = await createTeamMember(adminB, {
      email: shared,
      password: "password-of-b-1",
      role: "reviewer",
    });
    expect(Object.keys(again).sort()).toEqual(Object.keys(fresh).sort());
    expect(await prisma.dashboardUser.count({ where: { clientId: b.clientId } })).toBe(3);
    // A's member is untouched
    const inA = await prisma.dashboardUser.findMany({ where: { clientId: a.clientId } });
    expect(inA.map((u) => u.email)).toEqual([shared]);

    // the admin's own team: saying so tells them nothing new
    const own = await createTeamMember(adminB, {
      email: shared,
      password: "password-of-b-2",
      role: "reviewer",
    }).catch((e: unknown) => e);
    expect(own).toBeInstanceOf(DashboardUserError);
    expect((own as Error).message).toMatch(/already exists in this team/);
  });

  it("each person signs in to their own client with their own password", async () => {
    const { a, b, adminB } = await twoTenants();
    await createTeamMember(adminB, {
      email: shared,
      password: "password-of-b-1",
      role: "admin",
    });
    const intoA = await signInWithPassword({
      email: shared,
      password: "password-of-a-1",
      address: null,
    });
    expect(intoA).toMatchObject({ clientId: a.clientId, role: "reviewer" });
    const intoB = await signInWithPassword({
      email: shared.toUpperCase(),
      password: "password-of-b-1",
      address: null,
    });
    expect(intoB).toMatchObject({ clientId: b.clientId, role: "admin" });
    expect(await signInWithPassword({ email: shared, password: "neither", address: null })).toBeNull();
    // a failure is audited on each client's account with the email
    const failed = await prisma.auditLog.findMany({
      where: { action: "sign_in.failed", clientId: { in: [a.clientId, b.clientId] } },
    });
    expect(failed.map((r) => r.clientId).sort()).toEqual([a.clientId, b.clientId].sort());
  });

  it("asks for the organisation when the same email and password open two, and signs in to the one named", async () => {
    const { a, b, adminB } = await twoTenants();
    await createTeamMember(adminB, {
      email: shared,
      password: "password-of-a-1",
      role: "admin",
    });
    const ask = await signInWithPassword({
      email: shared,
      password: "password-of-a-1",
      address: null,
    }).catch((e: unknown) => e);
    expect(ask).toBeInstanceOf(SignInRefused);
    expect((ask as SignInRefused).code).toBe("SignInChooseOrganisation");
    // the right password is no failure: nothing counted, nothing audited as failed
    expect(await prisma.signInThrottle.count({ where: { key: { contains: tenant } } })).toBe(0);
    expect(
      await prisma.auditLog.count({
        where: { action: "sign_in.failed", clientId: { in: [a.clientId, b.clientId] } },
      }),
    ).toBe(0);

    const named = (organisation: string) =>
      signInWithPassword({
        email: shared,
        password: "password-of-a-1",
        organisation,
        address: null,
      });
    expect(await named(`tenant b ${tenant}`)).toMatchObject({ clientId: b.clientId, role: "admin" });
    expect(await named(`  Tenant A ${tenant} `)).toMatchObject({ clientId: a.clientId, role: "reviewer" });
    expect(await named(a.clientId)).toMatchObject({ clientId: a.clientId });
    // an organisation neither account belongs to: asked again
    expect(((await named("Tenant C").catch((e: unknown) => e)) as SignInRefused).code).toBe(
      "SignInChooseOrganisation",
    );
    // a disabled account is not a candidate: the other signs in without naming it
    await prisma.dashboardUser.updateMany({
      where: { clientId: a.clientId, email: shared },
      data: { disabledAt: new Date() },
    });
    expect(
      await signInWithPassword({ email: shared, password: "password-of-a-1", address: null }),
    ).toMatchObject({ clientId: b.clientId });
  });
});
