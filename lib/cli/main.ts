// Operator command line: `npm run --silent cli -- <command>`; one JSON object on stdout, errors on stderr.
import { parseArgs } from "@/lib/cli/args";
import { ensureDatabaseUrl } from "@/lib/embedded/server";

const USAGE = `usage: npm run --silent cli -- <command>
  client create --name NAME --type business|consumer [--features f1,f2] [--actions A1,A2]
  client configure --client ID [--name NAME] [--features ...] [--actions ...] [--reporting-profile FILE]
                   [--base-currency CODE] [--link-fan-out-cap N] [--retention-months N]
  apikey create --client ID [--name NAME]
  apikey revoke --key KEY
  rules import --client ID FILE
  rules export --client ID
  user create --client ID --email E --password P --role admin|reviewer|reporting_officer
  user unlock --email E
  sanctions import FILE [--format opensanctions|ofac] [--alt FILE2] [--dataset NAME]
  sanctions list
  fx import FILE
  lists import --client ID --list NAME [--kind KIND] FILE [--replace]
  lists export --client ID --list NAME
  retention [--dry-run] [--archive-dir DIR] [--now ISO]`;

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const [group, verb] = args.positionals;
  if (!group || args.flags.help) {
    process.stderr.write(USAGE + "\n");
    return args.flags.help ? 0 : 2;
  }
  const database = await ensureDatabaseUrl();
  try {
    const { commands, extraCommands, describeError } = await import("@/lib/cli/commands");
    await import("@/lib/cli/register");
    // two words (`client create`), or one (`retention`)
    const pair = verb === undefined ? undefined : `${group} ${verb}`;
    const paired = pair === undefined ? undefined : (commands[pair] ?? extraCommands[pair]);
    const command = paired ?? commands[group] ?? extraCommands[group];
    if (!command) {
      process.stderr.write(`Unknown command '${pair ?? group}'\n${USAGE}\n`);
      return 2;
    }
    args.positionals = args.positionals.slice(paired ? 2 : 1);
    try {
      const result = await command(args);
      process.stdout.write(JSON.stringify(result) + "\n");
      return 0;
    } catch (err) {
      process.stderr.write(`error: ${describeError(err)}\n`);
      return 1;
    } finally {
      const { prisma } = await import("@/lib/db");
      await prisma.$disconnect();
    }
  } finally {
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
