// Seeds the demo client into DATABASE_URL (used by the e2e set-up and by operators who want demo data).
import { ensureDatabaseUrl } from "../lib/embedded/server";

const database = await ensureDatabaseUrl();
const { seedDemo } = await import("../prisma/seed");
const { prisma } = await import("../lib/db");
await seedDemo({ print: true, baseUrl: process.env.NEXTAUTH_URL ?? "http://localhost:3000" });
await prisma.$disconnect();
await database.stop();
