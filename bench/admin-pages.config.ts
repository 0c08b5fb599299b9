import path from "node:path";
import { defineConfig } from "vitest/config";

// Runs bench/admin-pages.ts (see there) as a single long "test".
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "..") } },
  test: { include: ["bench/admin-pages.run.ts"], testTimeout: 900_000, environment: "node" },
});
