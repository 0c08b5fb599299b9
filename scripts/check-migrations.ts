// `npm run lint:migrations`: refuses a migration that would break the previous release while both run
// on the new schema (rolling upgrades; lib/ops/migration-check.ts says what, docs/operations.md how to
// write expand and contract migrations). Part of `npm run lint` and of `npm test`'s lint step.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { checkMigrations } from "@/lib/ops/migration-check";

const dir = path.resolve(process.argv[2] ?? "prisma/migrations");
const migrations = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
  .map((d) => ({ name: d.name, sql: readFileSync(path.join(dir, d.name, "migration.sql"), "utf8") }))
  .sort((a, b) => a.name.localeCompare(b.name));
const problems = checkMigrations(migrations);
for (const p of problems) console.error(`${p.migration}: ${p.reason}\n    ${p.statement.slice(0, 300)}`);
if (problems.length > 0) {
  console.error(
    `\n${problems.length} statement(s) would break the previous release during a rolling upgrade. Expand now and ` +
      "contract in a later release (docs/operations.md), marking that migration " +
      "`-- contract: <expand migration>; unused since <release>`.",
  );
  process.exit(1);
}
console.log(`migrations: ${migrations.length} read, none breaks the previous release`);
