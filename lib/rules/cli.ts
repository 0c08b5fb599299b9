// `rules import --client ID FILE` and `rules export --client ID`.
import { readFile } from "node:fs/promises";
import { CliError, requireFlag } from "@/lib/cli/args";
import { extraCommands } from "@/lib/cli/commands";
import { prisma } from "@/lib/db";
import { exportRules } from "@/lib/rules/export-rules";
import { importRules, RuleImportError } from "@/lib/rules/import-rules";

async function requireClient(clientId: string): Promise<void> {
  const client = await prisma.client.findUnique({ where: { id: clientId }, select: { id: true } });
  if (!client) throw new CliError(`Client ${clientId} does not exist`);
}

extraCommands["rules import"] = async (args) => {
  const clientId = requireFlag(args, "client");
  const file = args.positionals[0] ?? (typeof args.flags.file === "string" ? args.flags.file : undefined);
  if (!file) throw new CliError("usage: rules import --client ID FILE");
  await requireClient(clientId);
  const rules: unknown = JSON.parse(await readFile(file, "utf8"));
  try {
    return await importRules({ clientId, rules, actor: "cli" });
  } catch (err) {
    if (err instanceof RuleImportError) {
      throw new CliError(
        `nothing imported; ${err.errors.length} problem(s):\n` +
          err.errors.map((e) => `  ${e.ruleId}: ${e.message}`).join("\n"),
      );
    }
    throw err;
  }
};

extraCommands["rules export"] = async (args) => {
  const clientId = requireFlag(args, "client");
  await requireClient(clientId);
  return exportRules({ clientId });
};
