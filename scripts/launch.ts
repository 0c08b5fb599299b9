// Starts the service: embedded database when DATABASE_URL is unset, migrations, demo data (dev), then Next.js.
import { spawn } from "node:child_process";
import path from "node:path";
import { localSecrets } from "../lib/local-secrets";
import { DATA_DIR, startEmbeddedDatabase, type TEmbeddedDatabase } from "../lib/embedded/server";
import { checkStartup, exitWithConfigurationErrors } from "../lib/startup/check-startup";

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
  // Before anything starts: a bad variable or an unreachable database stops here, named, with exit 1.
  const problems = await checkStartup(process.env);
  if (problems.length > 0) exitWithConfigurationErrors(problems);
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
    // Unset on a laptop or demo: generated once into .data/secrets.json (see lib/local-secrets.ts).
    const secrets = localSecrets();
    process.env.NEXTAUTH_SECRET ??= secrets.NEXTAUTH_SECRET;
    process.env.WEBHOOK_SECRET_KEY ??= secrets.WEBHOOK_SECRET_KEY;
  }

  if (embedded || mode === "dev") {
    // Asynchronous: the embedded database answers from this process's event loop.
    const status = await run(process.execPath, [
      path.resolve("node_modules/prisma/build/index.js"),
      "migrate",
      "deploy",
    ]);
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
