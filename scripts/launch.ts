// Starts the service: embedded database when DATABASE_URL is unset, migrations, demo data (dev), then Next.js.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DATA_DIR, startEmbeddedDatabase, type TEmbeddedDatabase } from "../lib/embedded/server";

function localSecrets(): { NEXTAUTH_SECRET: string; WEBHOOK_SECRET_KEY: string } {
  mkdirSync(DATA_DIR, { recursive: true });
  const file = path.join(DATA_DIR, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as never;
  const secrets = {
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64url"),
  };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: process.env });
    child.on("exit", (code) => resolve(code ?? 1));
    child.on("error", () => resolve(1));
  });
}

export async function launch(mode: "dev" | "start"): Promise<void> {
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  const port = process.env.PORT ?? "3000";
  let embedded: TEmbeddedDatabase | null = null;
  if (!process.env.DATABASE_URL) {
    embedded = await startEmbeddedDatabase();
    process.env.DATABASE_URL = embedded.url;
    // One connection: the PGlite socket server serves one session, and a transaction on one connection
    // disturbs statements of the others.
    process.env.DATABASE_POOL_SIZE = "1";
    console.log(`Embedded database (PGlite) in ${path.join(DATA_DIR, "pglite")}`);
  }
  if (!process.env.NEXTAUTH_SECRET || !process.env.WEBHOOK_SECRET_KEY) {
    if (mode === "start" && process.env.NODE_ENV === "production" && !embedded) {
      console.error("NEXTAUTH_SECRET and WEBHOOK_SECRET_KEY must be set in production.");
      process.exit(1);
    }
    const secrets = localSecrets();
    process.env.NEXTAUTH_SECRET ??= secrets.NEXTAUTH_SECRET;
    process.env.WEBHOOK_SECRET_KEY ??= secrets.WEBHOOK_SECRET_KEY;
  }
  process.env.NEXTAUTH_URL ??= `http://localhost:${port}`;

  if (embedded || mode === "dev") {
    // Asynchronous: the embedded database answers from this process's event loop.
    const status = await run(process.execPath, [path.resolve("node_modules/prisma/build/index.js"), "migrate", "deploy"]);
    if (status !== 0) {
      await embedded?.stop();
      process.exit(status);
    }
  }
  if (mode === "dev") {
    const { seedDemo } = await import("../prisma/seed");
    await seedDemo({ print: true, baseUrl: `http://localhost:${port}` });
    const { prisma } = await import("../lib/db");
    await prisma.$disconnect();
  }

  // Next's own entry point, not npx, so that signals reach the server itself.
  const nextBin = path.resolve("node_modules/next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, mode, "-p", port], { stdio: "inherit", env: process.env });
  const shutdown = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  child.on("exit", (code) => {
    void (embedded ? embedded.stop() : Promise.resolve()).finally(() => process.exit(code ?? 0));
  });
}
