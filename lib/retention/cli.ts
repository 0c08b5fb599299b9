// `retention [--dry-run] [--archive-dir DIR] [--now ISO]`: archives and deletes what every client's
// retention period no longer keeps, and drops the emptied month partitions (docs/operations.md).
import { CliError, optionalFlag } from "@/lib/cli/args";
import { extraCommands } from "@/lib/cli/commands";
import { applyRetention, RetentionError } from "@/lib/retention/apply-retention";

extraCommands["retention"] = async (args) => {
  const dryRun = args.flags["dry-run"] === true;
  const archiveDir = optionalFlag(args, "archive-dir") ?? null;
  if (!dryRun && !archiveDir) throw new CliError("--archive-dir is required (or --dry-run)");
  const nowFlag = optionalFlag(args, "now");
  const now = nowFlag === undefined ? new Date() : new Date(nowFlag);
  if (Number.isNaN(now.getTime())) throw new CliError("--now must be an ISO date-time");
  try {
    return await applyRetention({ now, archiveDir, dryRun });
  } catch (err) {
    if (err instanceof RetentionError) throw new CliError(err.message);
    throw err;
  }
};
