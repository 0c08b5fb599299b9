// `fx import FILE`: exchange rates for every client's base amounts (docs/decisions.md §13).
import { CliError } from "@/lib/cli/args";
import { extraCommands } from "@/lib/cli/commands";
import { FxImportError, importFxRates } from "@/lib/fx/import-rates";

extraCommands["fx import"] = async (args) => {
  const file = args.positionals[0];
  if (!file) throw new CliError("usage: fx import FILE (CSV with a header row date,currency,rate)");
  try {
    return await importFxRates({ file });
  } catch (err) {
    if (err instanceof FxImportError) throw new CliError(`nothing imported; ${err.message}`);
    throw err;
  }
};
