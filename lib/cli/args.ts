// Minimal flag parser: positionals plus --flag value / --flag=value.
export type TArgs = { positionals: string[]; flags: Record<string, string | true> };

export function parseArgs(argv: string[]): TArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      if (eq > 0) {
        flags[arg.slice(2, eq)] = arg.slice(eq + 1);
      } else {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith("--")) {
          flags[arg.slice(2)] = next;
          i++;
        } else {
          flags[arg.slice(2)] = true;
        }
      }
    } else {
      positionals.push(arg);
    }
  }
  return { positionals, flags };
}

export class CliError extends Error {}

export function requireFlag(args: TArgs, name: string): string {
  const value = args.flags[name];
  if (typeof value !== "string" || value.trim() === "") throw new CliError(`--${name} is required`);
  return value;
}

export function optionalFlag(args: TArgs, name: string): string | undefined {
  const value = args.flags[name];
  if (value === undefined) return undefined;
  if (value === true) throw new CliError(`--${name} needs a value`);
  return value;
}

export function listFlag(args: TArgs, name: string): string[] | undefined {
  const value = optionalFlag(args, name);
  if (value === undefined) return undefined;
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
