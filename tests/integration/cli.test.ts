import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/db";
import { call } from "@/tests/factories";
import * as rulesRoute from "@/app/v1/rules/route";

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string; json: any } {
  const res = spawnSync("npx", ["tsx", "lib/cli/main.ts", ...args], {
    env: { ...process.env },
    encoding: "utf8",
    timeout: 60_000,
  });
  let json: unknown = null;
  try {
    json = JSON.parse(res.stdout);
  } catch {
    // not JSON
  }
  return { code: res.status, stdout: res.stdout, stderr: res.stderr, json };
}

describe("operator CLI", () => {
  it("creates a client with features and actions, and its key authenticates", async () => {
    const res = cli(
      "client",
      "create",
      "--name",
      "Acme Pay",
      "--type",
      "business",
      "--features",
      "reporting,eventRules",
      "--actions",
      "ALLOW,BLOCK,REVIEW",
    );
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split("\n")).toHaveLength(1);
    expect(res.json).toEqual({ clientId: expect.any(String), apiKey: expect.any(String) });
    const client = await prisma.client.findUniqueOrThrow({ where: { id: res.json.clientId } });
    expect(client).toMatchObject({
      name: "Acme Pay",
      type: "business",
      features: ["reporting", "eventRules"],
      actions: ["ALLOW", "BLOCK", "REVIEW"],
    });
    const key = await prisma.apiKey.findFirstOrThrow({ where: { clientId: client.id } });
    expect(key.hash).not.toContain(res.json.apiKey);
    expect((await call(rulesRoute.GET, { apiKey: res.json.apiKey })).status).toBe(200);
  });

  it("defaults to all ten actions and configures by replacing the feature list", async () => {
    const created = cli(
      "client",
      "create",
      "--name",
      "Wallet Co",
      "--type",
      "consumer",
      "--features",
      "reporting",
    );
    expect(created.code).toBe(0);
    const configured = cli(
      "client",
      "configure",
      "--client",
      created.json.clientId,
      "--features",
      "eventRules,walletVerification",
    );
    expect(configured.code).toBe(0);
    expect(configured.json).toMatchObject({
      clientId: created.json.clientId,
      type: "consumer",
      features: ["eventRules", "walletVerification"],
    });
    expect(configured.json.actions).toHaveLength(10);
  });

  it("creates and revokes API keys", async () => {
    const { json: client } = cli("client", "create", "--name", "Keys", "--type", "consumer");
    const created = cli("apikey", "create", "--client", client.clientId);
    expect(created.code).toBe(0);
    expect(created.json).toEqual({ apiKey: expect.stringMatching(/^rsk_/) });
    expect((await call(rulesRoute.GET, { apiKey: created.json.apiKey })).status).toBe(200);
    const revoked = cli("apikey", "revoke", "--key", created.json.apiKey);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ revoked: true });
    expect((await call(rulesRoute.GET, { apiKey: created.json.apiKey })).status).toBe(401);
    const again = cli("apikey", "revoke", "--key", created.json.apiKey);
    expect(again.code).not.toBe(0);
    expect(again.stdout).toBe("");
  });

  it("creates dashboard users with hashed passwords", async () => {
    const { json: client } = cli("client", "create", "--name", "Team", "--type", "consumer");
    const res = cli(
      "user",
      "create",
      "--client",
      client.clientId,
      "--email",
      "Officer@Example.com",
      "--password",
      "s3cret-password",
      "--role",
      "reporting_officer",
    );
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ userId: expect.any(String) });
    const user = await prisma.dashboardUser.findUniqueOrThrow({ where: { id: res.json.userId } });
    expect(user).toMatchObject({
      email: "officer@example.com",
      role: "reporting_officer",
      clientId: client.clientId,
    });
    expect(user.passwordHash).not.toContain("s3cret");
    expect(user.passwordHash).toMatch(/^\$2[aby]\$/);
    const dup = cli(
      "user",
      "create",
      "--client",
      client.clientId,
      "--email",
      "officer@example.com",
      "--password",
      "another-password",
      "--role",
      "admin",
    );
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toMatch(/already exists/);
  });

  it("lifts a dashboard user's sign-in lock", async () => {
    const email = "locked-out@example.com";
    await prisma.signInThrottle.create({
      data: { key: `account:${email}`, failures: 10, lastFailureAt: new Date(), lockedAt: new Date() },
    });
    const res = cli("user", "unlock", "--email", email);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim().split("\n")).toHaveLength(1);
    expect(res.json).toEqual({ email, unlocked: true });
    expect(await prisma.signInThrottle.count({ where: { key: `account:${email}` } })).toBe(0);
    expect(cli("user", "unlock", "--email", email).json).toEqual({ email, unlocked: false });
    const missing = cli("user", "unlock");
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--email/);
  });

  it.each([
    [["client", "create", "--name", "X", "--type", "enterprise"], /--type/],
    [["client", "create", "--type", "business"], /--name/],
    [["client", "create", "--name", "X", "--type", "business", "--features", "teleport"], /Unknown feature/],
    [["client", "create", "--name", "X", "--type", "business", "--actions", "ALLOW,NUKE"], /Unknown action/],
    [["client", "configure", "--client", "nope", "--features", "reporting"], /does not exist/],
    [["apikey", "create", "--client", "nope"], /does not exist/],
    [
      [
        "user",
        "create",
        "--client",
        "nope",
        "--email",
        "a@b.co",
        "--password",
        "longenough",
        "--role",
        "admin",
      ],
      /does not exist/,
    ],
    [["frobnicate", "now"], /Unknown command/],
  ])("fails cleanly on bad input: %j", (args, message) => {
    const res = cli(...args);
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe("");
    expect(res.stderr).toMatch(message);
  });
});
