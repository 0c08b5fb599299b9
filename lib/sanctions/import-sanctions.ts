// Loads a sanctions list file into one dataset, replacing its previous content atomically.
//
// Files are streamed record by record and written in batches inside one transaction: a bad record
// aborts the transaction (the previous import stays in place) and the error names the file and line.
import { randomUUID } from "node:crypto";
import { access } from "node:fs/promises";
import path from "node:path";
import { prisma, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { CsvFormatError, readCsvRecords } from "@/lib/sanctions/read-csv";
import { parsePartialDate } from "@/lib/sanctions/similarity";

export const SANCTIONS_FORMATS = ["opensanctions", "ofac"] as const;
export type TSanctionsFormat = (typeof SANCTIONS_FORMATS)[number];

export const DEFAULT_DATASET: Record<TSanctionsFormat, string> = {
  opensanctions: "opensanctions",
  ofac: "us_ofac_sdn",
};

export class SanctionsImportError extends Error {}

type TEntityRow = {
  entityId: string;
  schema: string;
  name: string;
  aliases: string[];
  birthDates: string[];
  countries: string[];
  programme: string | null;
};

const BATCH = 2_000;
const DATASET_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

function fail(file: string, line: number, message: string): never {
  throw new SanctionsImportError(`${path.basename(file)} line ${line}: ${message}`);
}

function splitList(value: string | undefined): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(";")
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

async function insertEntities(tx: Tx, datasetId: string, rows: TEntityRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "sanctions_entities"
      ("datasetId", "entityId", "schema", "name", "aliases", "birthDates", "countries", "programme")
    SELECT ${datasetId}, x."entityId", x."schema", x."name", x."aliases", x."birthDates", x."countries", x."programme"
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
      "entityId" text, "schema" text, "name" text, "aliases" text[], "birthDates" text[],
      "countries" text[], "programme" text)`;
}

/** Records of a CSV file without blank lines (and OFAC's trailing end-of-file character). */
async function* records(file: string) {
  try {
    for await (const record of readCsvRecords(file)) {
      const only = record.fields.length === 1 ? record.fields[0]!.trim() : null;
      if (only === "" || only === "\u001a") continue;
      yield record;
    }
  } catch (err) {
    if (err instanceof CsvFormatError) fail(file, err.line, err.message.replace(/^line \d+: /, ""));
    throw err;
  }
}

type TCounts = { entities: number; names: number };

async function loadOpenSanctions(tx: Tx, datasetId: string, file: string): Promise<TCounts> {
  let columns: Map<string, number> | null = null;
  const seen = new Set<string>();
  let batch: TEntityRow[] = [];
  let names = 0;
  for await (const { fields, line } of records(file)) {
    if (!columns) {
      columns = new Map(fields.map((name, i) => [name.trim().toLowerCase(), i]));
      for (const required of ["id", "name"]) {
        if (!columns.has(required)) fail(file, line, `the header has no '${required}' column`);
      }
      continue;
    }
    if (fields.length !== columns.size) {
      fail(file, line, `expected ${columns.size} fields as in the header, found ${fields.length}`);
    }
    const get = (column: string) => {
      const i = columns!.get(column);
      return i === undefined ? undefined : fields[i]!.trim();
    };
    const entityId = get("id")!;
    const name = get("name")!;
    if (!entityId) fail(file, line, "'id' is empty");
    if (!name) fail(file, line, `'name' is empty for ${entityId}`);
    if (seen.has(entityId)) fail(file, line, `id ${entityId} appears twice`);
    seen.add(entityId);
    const aliases = splitList(get("aliases")).filter((a) => a !== name);
    names += 1 + aliases.length;
    batch.push({
      entityId,
      schema: get("schema") || "LegalEntity",
      name,
      aliases,
      birthDates: splitList(get("birth_date"))
        .map(parsePartialDate)
        .filter((d): d is string => d !== null),
      countries: splitList(get("countries")),
      programme: get("sanctions") || get("program_ids") || null,
    });
    if (batch.length >= BATCH) {
      await insertEntities(tx, datasetId, batch);
      batch = [];
    }
  }
  if (!columns) fail(file, 1, "the file is empty (expected a header row)");
  await insertEntities(tx, datasetId, batch);
  return { entities: seen.size, names };
}

const OFAC_NULL = "-0-";
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function ofacValue(value: string | undefined): string {
  const v = (value ?? "").trim();
  return v === OFAC_NULL ? "" : v;
}

/** Birth dates from OFAC remarks: "DOB 12 Mar 1965", "DOB Mar 1965", "DOB 1965", "alt. DOB circa 1960". */
function ofacBirthDates(remarks: string): string[] {
  const dates: string[] = [];
  for (const m of remarks.matchAll(/DOB (?:circa )?(?:(\d{1,2}) )?(?:([A-Za-z]{3})[a-z]* )?(\d{4})/g)) {
    const month = m[2] ? MONTHS.indexOf(m[2].toLowerCase()) + 1 : 0;
    let date = m[3]!;
    if (month > 0) date += `-${String(month).padStart(2, "0")}`;
    if (month > 0 && m[1]) date += `-${m[1].padStart(2, "0")}`;
    dates.push(date);
  }
  return [...new Set(dates)];
}

async function loadOfac(tx: Tx, datasetId: string, file: string, altFile: string): Promise<TCounts> {
  const seen = new Set<string>();
  let batch: TEntityRow[] = [];
  for await (const { fields, line } of records(file)) {
    if (fields.length !== 12) fail(file, line, `expected 12 fields (sdn.csv layout), found ${fields.length}`);
    const entityId = fields[0]!.trim();
    const name = ofacValue(fields[1]);
    if (!/^\d+$/.test(entityId)) fail(file, line, `ent_num '${entityId}' is not a number`);
    if (!name) fail(file, line, `SDN_Name is empty for ${entityId}`);
    if (seen.has(entityId)) fail(file, line, `ent_num ${entityId} appears twice`);
    seen.add(entityId);
    const programme = ofacValue(fields[3])
      .replace(/^\[|\]$/g, "")
      .split("] [")
      .join("; ");
    batch.push({
      entityId,
      schema: ofacValue(fields[2]) || "entity",
      name,
      aliases: [],
      birthDates: ofacBirthDates(ofacValue(fields[11])),
      countries: [],
      programme: programme || null,
    });
    if (batch.length >= BATCH) {
      await insertEntities(tx, datasetId, batch);
      batch = [];
    }
  }
  await insertEntities(tx, datasetId, batch);

  let aliases = new Map<string, string[]>();
  let aliasCount = 0;
  const flush = async () => {
    if (aliases.size === 0) return;
    const rows = [...aliases].map(([entityId, names]) => ({ entityId, names }));
    await tx.$executeRaw`
      UPDATE "sanctions_entities" e SET "aliases" = e."aliases" || x."names"
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x("entityId" text, "names" text[])
      WHERE e."datasetId" = ${datasetId} AND e."entityId" = x."entityId"`;
    aliases = new Map();
  };
  for await (const { fields, line } of records(altFile)) {
    if (fields.length !== 5)
      fail(altFile, line, `expected 5 fields (alt.csv layout), found ${fields.length}`);
    const entityId = fields[0]!.trim();
    const name = ofacValue(fields[3]);
    if (!seen.has(entityId)) fail(altFile, line, `ent_num '${entityId}' is not in ${path.basename(file)}`);
    if (!name) fail(altFile, line, `alt_name is empty for ${entityId}`);
    const list = aliases.get(entityId);
    if (list) list.push(name);
    else aliases.set(entityId, [name]);
    aliasCount++;
    if (aliases.size >= BATCH) await flush();
  }
  await flush();
  return { entities: seen.size, names: seen.size + aliasCount };
}

/**
 * `sanctions import`: replaces the dataset (default: `opensanctions`, or `us_ofac_sdn` for OFAC) with
 * the file's entities. Throws SanctionsImportError naming the file and line; nothing changes then.
 */
export async function importSanctions(args: {
  file: string;
  format?: TSanctionsFormat;
  altFile?: string;
  dataset?: string;
}): Promise<{ dataset: string; entities: number; names: number }> {
  const format = args.format ?? "opensanctions";
  const datasetId = args.dataset ?? DEFAULT_DATASET[format];
  if (!DATASET_ID.test(datasetId)) {
    throw new SanctionsImportError(`dataset name '${datasetId}' must match ${DATASET_ID.source}`);
  }
  if (format === "ofac" && !args.altFile) {
    throw new SanctionsImportError("--format ofac needs the alt.csv file as --alt FILE2");
  }
  if (format !== "ofac" && args.altFile) throw new SanctionsImportError("--alt is only for --format ofac");

  for (const file of [args.file, args.altFile]) {
    if (file === undefined) continue;
    await access(file).catch(() => {
      throw new SanctionsImportError(`cannot read ${file}`);
    });
  }

  const counts = await prisma.$transaction(
    async (tx) => {
      // one import per dataset at a time; screenings keep reading the previous version meanwhile
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`sanctions:${datasetId}`}))`;
      await tx.$executeRaw`DELETE FROM "sanctions_entities" WHERE "datasetId" = ${datasetId}`;
      const result =
        format === "ofac"
          ? await loadOfac(tx, datasetId, args.file, args.altFile!)
          : await loadOpenSanctions(tx, datasetId, args.file);
      if (result.entities === 0) {
        throw new SanctionsImportError(`${path.basename(args.file)}: no entities (nothing imported)`);
      }
      const data = {
        format,
        sourceFile: [args.file, args.altFile]
          .filter((f): f is string => f !== undefined)
          .map((f) => path.basename(f))
          .join(" + "),
        entityCount: result.entities,
        nameCount: result.names,
        importId: randomUUID(),
        loadedAt: new Date(),
      };
      await tx.sanctionsDataset.upsert({
        where: { id: datasetId },
        create: { id: datasetId, ...data },
        update: data,
      });
      return result;
    },
    { timeout: 30 * 60_000, maxWait: 60_000, isolationLevel: Prisma.TransactionIsolationLevel.ReadCommitted },
  );
  return { dataset: datasetId, ...counts };
}
