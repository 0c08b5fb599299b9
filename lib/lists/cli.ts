// `lists import --client ID --list NAME --kind KIND FILE [--replace]` and `lists export --client ID --list NAME`.
import { basename } from "node:path";
import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import { extraCommands } from "@/lib/cli/commands";
import { prisma } from "@/lib/db";
import { exportList } from "@/lib/lists/export-list";
import { importListEntries, ListImportError, parseListCsv } from "@/lib/lists/import-list-entries";
import { LIST_KINDS, type TListKind } from "@/lib/lists/schemas";
import { readCsvRecords } from "@/lib/sanctions/read-csv";

async function requireClient(clientId: string): Promise<void> {
  const client = await prisma.client.findUnique({ where: { id: clientId }, select: { id: true } });
  if (!client) throw new CliError(`Client ${clientId} does not exist`);
}

extraCommands["lists import"] = async (args) => {
  // `--replace FILE` reads as a flag with a value: the value is then the file
  const replaceFlag = args.flags.replace;
  const file = args.positionals[0] ?? (typeof replaceFlag === "string" ? replaceFlag : undefined);
  if (!file) throw new CliError("usage: lists import --client ID --list NAME --kind KIND FILE [--replace]");
  const clientId = requireFlag(args, "client");
  const name = requireFlag(args, "list");
  const kindFlag = optionalFlag(args, "kind");
  if (kindFlag !== undefined && !(LIST_KINDS as readonly string[]).includes(kindFlag))
    throw new CliError(`--kind must be one of ${LIST_KINDS.join(", ")}`);
  await requireClient(clientId);
  try {
    const existing = await prisma.list.findUnique({ where: { clientId_name: { clientId, name } } });
    const kind = (kindFlag ?? existing?.kind) as TListKind | undefined;
    if (!kind) throw new CliError(`list '${name}' does not exist: give --kind to create it`);
    const entries = await parseListCsv(readCsvRecords(file), kind, basename(file));
    return await importListEntries({
      clientId,
      name,
      kind,
      entries,
      replace: replaceFlag !== undefined,
      actor: "cli",
      source: basename(file),
    });
  } catch (err) {
    if (err instanceof ListImportError) throw new CliError(`nothing imported; ${err.message}`);
    throw err;
  }
};

extraCommands["lists export"] = async (args) => {
  const clientId = requireFlag(args, "client");
  const name = requireFlag(args, "list");
  await requireClient(clientId);
  const exported = await exportList({ clientId, name });
  if (!exported) throw new CliError(`list '${name}' does not exist`);
  return exported;
};
