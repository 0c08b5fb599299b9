import { fileURLToPath } from "node:url";
import { defineConfig } from "prisma/config";

// Every Prisma CLI command would otherwise download the native schema engine from
// Prisma's binary host (unreachable here and in air-gapped installs). Our own engine
// (prisma/engine/schema-engine.mjs) runs the Wasm build of the same engine instead.
// The CLI reads this file before it resolves engines, so setting the variable here
// covers every command; an explicit PRISMA_SCHEMA_ENGINE_BINARY still wins.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(
  new URL("./prisma/engine/schema-engine.mjs", import.meta.url),
);
// No update checks / telemetry (the "checkpoint" client would call the network).
process.env.CHECKPOINT_DISABLE ??= "1";
process.env.PRISMA_HIDE_UPDATE_MESSAGE ??= "1";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: {
    path: "prisma/migrations",
  },
  // Prisma 7: connection URLs live here, not in the schema. Left undefined when
  // DATABASE_URL is unset, so that `prisma generate` (no database) still works.
  datasource: {
    url: process.env.DATABASE_URL,
    // Optional. Without it `migrate dev` creates and drops a temporary shadow
    // database on the same server (PostgreSQL: needs CREATEDB), or, when the
    // database is PGlite, uses a throwaway in-memory PGlite.
    shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL || undefined,
  },
});
