import { randomBytes } from "node:crypto";
import { afterAll } from "vitest";
import { adminQuery, databaseUrl, templateDb } from "./pg-admin";

// A fresh database per test file, copied from the migrated template.
const name = `rss_t_${randomBytes(6).toString("hex")}`;
await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${templateDb()}"`);
process.env.DATABASE_URL = databaseUrl(name);
process.env.NEXTAUTH_SECRET ??= "test-nextauth-secret-0123456789";
process.env.WEBHOOK_SECRET_KEY ??= "test-webhook-secret-key-0123456789";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ??= "true";

afterAll(async () => {
  const g = globalThis as unknown as { prisma?: { $disconnect: () => Promise<void> } };
  await g.prisma?.$disconnect();
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});
