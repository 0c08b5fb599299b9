import { createHash } from "node:crypto";
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import * as rulesRoute from "@/app/v1/rules/route";
import * as webhooksRoute from "@/app/v1/webhooks/route";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { openSecret } from "@/lib/crypto/secret-box";
import { createDashboardUser } from "@/lib/dashboard-users/create-dashboard-user";
import { prisma } from "@/lib/db";
import { call, createTestClient } from "@/tests/factories";

// The storage claims of SECURITY.md, checked against the rows actually written.

describe("stored credentials", () => {
  it("API keys: 24 random bytes, only the SHA-256 hash and a short prefix stored, revocation is a 401", async () => {
    const { clientId, apiKey } = await createTestClient();
    expect(apiKey).toMatch(/^rsk_[A-Za-z0-9_-]{32}$/); // 24 bytes in base64url
    const row = await prisma.apiKey.findFirstOrThrow({ where: { clientId } });
    expect(row.hash).toBe(createHash("sha256").update(apiKey).digest("hex"));
    expect(row.prefix).toBe(apiKey.slice(0, 10));
    expect(JSON.stringify(row)).not.toContain(apiKey.slice(10));
    const other = await createTestClient();
    expect(other.apiKey).not.toBe(apiKey);
    expect((await call(rulesRoute.GET, { apiKey })).status).toBe(200);
    expect(await revokeApiKey({ apiKey })).toBe(true);
    const refused = await call(rulesRoute.GET, { apiKey });
    expect(refused.status).toBe(401);
    expect(refused.body.error.type).toBe("UNAUTHORIZED");
  });

  it("dashboard passwords: bcrypt with cost 12, never the password", async () => {
    const { clientId } = await createTestClient();
    const { userId } = await createDashboardUser({
      clientId,
      email: "sec@example.test",
      password: "a long pass phrase",
      role: "admin",
    });
    const row = await prisma.dashboardUser.findUniqueOrThrow({ where: { id: userId } });
    expect(row.passwordHash).toMatch(/^\$2[aby]\$12\$/);
    expect(row.passwordHash).not.toContain("a long pass phrase");
    expect(await bcrypt.compare("a long pass phrase", row.passwordHash)).toBe(true);
  });

  it("webhook secrets: AES-256-GCM at rest (v1.<12-byte IV>.<16-byte tag>.<ciphertext>), never returned", async () => {
    const { clientId, apiKey } = await createTestClient();
    const secret = "whsec_security-test-secret";
    const res = await call(webhooksRoute.POST, {
      apiKey,
      body: { url: "https://hooks.example.com/x", events: ["transaction.screened"], secret },
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    const row = await prisma.webhookSubscription.findFirstOrThrow({ where: { clientId } });
    const [version, iv, tag, ciphertext] = row.secretEncrypted.split(".");
    expect(version).toBe("v1");
    expect(Buffer.from(iv!, "base64url")).toHaveLength(12);
    expect(Buffer.from(tag!, "base64url")).toHaveLength(16);
    expect(Buffer.from(ciphertext!, "base64url")).toHaveLength(Buffer.byteLength(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(openSecret(row.secretEncrypted)).toBe(secret);
    const listed = await call(webhooksRoute.GET, { apiKey });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });
});
