// `sanctions import FILE [--format opensanctions|ofac] [--alt FILE2] [--dataset NAME]` and `sanctions list`.
import { CliError, optionalFlag } from "@/lib/cli/args";
import { extraCommands } from "@/lib/cli/commands";
import {
  importSanctions,
  SANCTIONS_FORMATS,
  SanctionsImportError,
  type TSanctionsFormat,
} from "@/lib/sanctions/import-sanctions";
import { listSanctionsDatasets } from "@/lib/sanctions/list-sanctions-datasets";

extraCommands["sanctions import"] = async (args) => {
  const file = args.positionals[0];
  if (!file) throw new CliError("usage: sanctions import FILE [--format opensanctions|ofac] [--alt FILE2]");
  const format = optionalFlag(args, "format") ?? "opensanctions";
  if (!(SANCTIONS_FORMATS as readonly string[]).includes(format)) {
    throw new CliError(`--format must be one of ${SANCTIONS_FORMATS.join(", ")}`);
  }
  try {
    return await importSanctions({
      file,
      format: format as TSanctionsFormat,
      altFile: optionalFlag(args, "alt"),
      dataset: optionalFlag(args, "dataset"),
    });
  } catch (err) {
    if (err instanceof SanctionsImportError) throw new CliError(`nothing imported; ${err.message}`);
    throw err;
  }
};

extraCommands["sanctions list"] = async () => ({ datasets: await listSanctionsDatasets() });
