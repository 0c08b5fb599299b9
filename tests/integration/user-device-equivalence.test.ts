// POST /v1/user/device on the raw-SQL path (lib/users/add-user-device.ts) against the Prisma path it
// replaced (addUserDevicePrisma): two clients with the same users receive the same device sightings,
// one through each path, and must end with the same answers, devices and identifier links; the raw path
// is one statement after the API key read.
import pg from "pg";
import { describe, expect, it } from "vitest";
import * as deviceRoute from "@/app/v1/user/device/route";
import { prisma, SESSION_SETUP } from "@/lib/db";
import { NOTIFY_STATEMENT } from "@/lib/jobs/wake";
import { addUserDevice } from "@/lib/users/add-user-device";
import { addUserDevicePrisma } from "@/tests/oracle/party-screening-oracle";
import { ZAddUserDevice } from "@/lib/users/schemas";
import { call, createTestClient } from "@/tests/factories";

async function side(name: string) {
  const { clientId, apiKey } = await createTestClient({ name });
  await prisma.user.createMany({
    data: ["u1", "u2"].map((id) => ({ clientId, id, data: { id }, status: "active", createdAt: new Date() })),
  });
  return { clientId, apiKey };
}

const SIGHTINGS: Array<Record<string, unknown>> = [
  { userId: "u1", device: { id: "d1", ipAddress: "192.0.2.7", fingerprint: "FP-1", platform: "android" } },
  // seen again: a new IP address, no fingerprint sent (the stored one is kept), first seen kept
  { userId: "u1", device: { id: "d1", ipAddress: "192.0.2.8", isVpn: true } },
  // the same device now used by another user (the device follows, the first user's links stay)
  { userId: "u2", device: { id: "d1", fingerprint: "fp-2" } },
  // no identifiers at all
  { userId: "u2", device: { id: "d2" } },
  { userId: "u1", device: { id: "d3", ipAddress: " 192.0.2.7 " } },
  // an unknown user: 404, nothing stored
  { userId: "nobody", device: { id: "d4", ipAddress: "192.0.2.9" } },
];

async function snapshot(clientId: string) {
  const rows = async (sql: string) =>
    (await prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql, clientId)).map((r) => JSON.stringify(r));
  return {
    devices: await rows(
      `SELECT id, "userId", fingerprint, "ipAddress", data, ("firstSeenAt" = "lastSeenAt") AS "seenOnce"
       FROM devices WHERE "clientId" = $1 ORDER BY id`,
    ),
    identifiers: await rows(
      `SELECT kind, value, "userId", source FROM user_identifiers WHERE "clientId" = $1 ORDER BY kind, value, "userId"`,
    ),
  };
}

describe("POST /v1/user/device on the raw-SQL path", () => {
  it("answers and stores exactly what the Prisma path does", async () => {
    const [a, b] = [await side("Device, Prisma"), await side("Device, raw")];
    for (const body of SIGHTINGS) {
      const input = ZAddUserDevice.parse(body);
      const expected = await addUserDevicePrisma({ clientId: a.clientId, ...input }).then(
        ({ id }) => ({ status: 200, body: { id, status: "success" } }),
        (err: { status?: number; body?: unknown; toResponse?: unknown }) => err,
      );
      const res = await call(deviceRoute.POST, { apiKey: b.apiKey, body });
      if (input.userId === "nobody") {
        expect([res.status, res.body.error.type]).toEqual([404, "NOT_FOUND"]);
        expect(expected).toBeInstanceOf(Error);
      } else expect({ status: res.status, body: res.body }).toEqual(expected);
    }
    const [sa, sb] = [await snapshot(a.clientId), await snapshot(b.clientId)];
    expect(sa.devices).toHaveLength(3);
    expect(sa.identifiers.length).toBeGreaterThan(3);
    expect(sb).toEqual(sa);
  });

  it("is one statement", async () => {
    const { clientId } = await side("Device, statements");
    const original = pg.Client.prototype.query;
    let statements = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      // a new pooled connection's session setup is not the screening's
      // nor is the job drivers' NOTIFY after a write's commit (at most one per 50 ms per process, on the
      // background pool: lib/jobs/wake.ts)
      if (args[0] !== SESSION_SETUP && args[0] !== NOTIFY_STATEMENT) statements++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      await addUserDevice({ clientId, userId: "u1", device: { id: "d1", ipAddress: "192.0.2.7" } });
      await addUserDevice({ clientId, userId: "u1", device: { id: "d1", ipAddress: "192.0.2.8" } });
      await expect(addUserDevice({ clientId, userId: "nobody", device: { id: "d9" } })).rejects.toThrow();
      expect(statements).toBe(3);
      statements = 0;
      await addUserDevicePrisma({ clientId, userId: "u2", device: { id: "d2", ipAddress: "192.0.2.7" } });
      console.log(`POST /v1/user/device, Prisma path: ${statements} statements`);
      expect(statements).toBeGreaterThan(1);
    } finally {
      pg.Client.prototype.query = original;
    }
  });
});
