import { configurationErrors } from "@/lib/env-schema";
import { checkDatabase } from "@/lib/startup/check-database";

/**
 * Everything that must hold before the server answers a request: the environment parses, and the
 * database (when DATABASE_URL is set) accepts a connection. Returns one sentence per problem.
 */
export async function checkStartup(source: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const errors = configurationErrors(source);
  if (errors.length > 0) return errors;
  const database = source.DATABASE_URL ? await checkDatabase(source.DATABASE_URL) : null;
  return database ? [database] : [];
}

/** Prints the problems on stderr and exits with status 1; the process never serves a request. */
export function exitWithConfigurationErrors(errors: string[]): never {
  console.error(["Configuration error, not starting:", ...errors.map((e) => `  - ${e}`)].join("\n"));
  process.exit(1);
}
