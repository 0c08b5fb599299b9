// Rolling upgrades need every migration to be backward compatible for one release: while the schema is
// new, instances of the previous release still run on it. So a migration only expands (new tables,
// nullable or defaulted columns, indexes, triggers); what it makes unused goes away in a later
// release's *contract* migration, once no running release uses it (docs/operations.md).
//
// This check reads each migration newer than MIGRATION_CHECK_BASELINE (the older ones are history)
// and refuses the statements that break the previous release, unless the migration declares itself
// the contract step of an earlier expand with a marker line:
//
//   -- contract: <expand migration folder>; unused since <release that stopped using it>
//
// One exception to "no RENAME": a *swap*, which replaces a table by one with the same name and the same
// columns (a table partitioned in place: docs/operations.md, "Partitions and retention"). The migration
// creates `CREATE TABLE <new> (LIKE <table> [INCLUDING ...]) [WITH (<storage parameters>)] [PARTITION BY ...]`,
// then renames <table> away
// and <new> to <table>, in that order; the table renamed away may be dropped, and after the swap <table> may
// get its primary key (`ALTER TABLE <table> ADD [CONSTRAINT <name>] PRIMARY KEY (...)`; a partitioned table's
// must hold the partition key, so it is made anew). Everything else on <table> is checked as on any existing
// table, and any other RENAME of a table is refused.
//
// It reads SQL written the way prisma/migrations is (one statement per `;`); comments, string
// literals and dollar-quoted bodies are not looked into.

/**
 * The last migration merged before the rule; it and every older one are history, not checked (the
 * last, which replaces the unique index on dashboard users' email by one per client, would need the
 * contract marker under the rule: its DROP INDEX is refused).
 */
export const MIGRATION_CHECK_BASELINE = "20261126204500_dashboard_user_email_per_client";

export type TMigrationProblem = { migration: string; statement: string; reason: string };

const CONTRACT_MARKER =
  /^--[ \t]*contract:[ \t]*([0-9]{14}_[A-Za-z0-9_]+)[ \t]*;[ \t]*unused since[ \t]+(\S[^\n]*?)[ \t]*$/m;

/** The SQL without comments, with string literals and dollar-quoted bodies emptied (one left-to-right pass). */
function stripLiterals(sql: string): string {
  const token = /--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"(?:[^"]|"")*"|\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g;
  return sql.replace(token, (t) =>
    t.startsWith("--") || t.startsWith("/*") ? " " : t.startsWith('"') ? t : "''",
  );
}

/** An identifier as PostgreSQL compares it: unquoted, without the schema, quoted names kept as written. */
function ident(raw: string): string {
  const last = raw.split(".").pop() ?? raw;
  return last.startsWith('"') ? last.slice(1, -1) : last.toLowerCase();
}

const NAME = String.raw`((?:"[^"]+"|[A-Za-z_][\w$]*)(?:\.(?:"[^"]+"|[A-Za-z_][\w$]*))?)`;

function namesCreated(statements: string[], kind: RegExp): Set<string> {
  const names = new Set<string>();
  for (const s of statements) {
    const m = kind.exec(s);
    if (m?.[1]) names.add(ident(m[1]));
  }
  return names;
}

/**
 * The swaps of a migration (see the header): for each, the table's name, the name it was renamed away to,
 * and the index of the statement that renamed the new table to it (from there on the table is a new one).
 */
function swapsOf(
  statements: string[],
): Array<{ table: string; away: string; renamed: number; back: number }> {
  const likes = new Map<string, string>(); // new table -> the table its columns come from
  for (const s of statements) {
    const m = new RegExp(
      `^CREATE TABLE ${NAME} \\( ?LIKE ${NAME}(?: (?:INCLUDING|EXCLUDING) [A-Z]+)* ?\\)(?: WITH \\([\\w\\s=,.]+\\))?(?: PARTITION BY .*)?$`,
      "i",
    ).exec(s);
    if (m) likes.set(ident(m[1]!), ident(m[2]!));
  }
  const renames = statements.map((s) => {
    const m = new RegExp(`^ALTER TABLE (?:IF EXISTS )?${NAME} RENAME TO ${NAME}$`, "i").exec(s);
    return m ? { from: ident(m[1]!), to: ident(m[2]!) } : null;
  });
  const swaps: Array<{ table: string; away: string; renamed: number; back: number }> = [];
  renames.forEach((r, renamed) => {
    if (!r) return;
    const back = renames.findIndex(
      (b, i) => i > renamed && b !== null && b.to === r.from && likes.get(b.from) === r.from,
    );
    if (back >= 0) swaps.push({ table: r.from, away: r.to, renamed, back });
  });
  return swaps;
}

/** The problems of one migration's SQL (`name` is its folder; `all` every folder, to check a marker). */
export function checkMigration(name: string, sql: string, all: readonly string[] = []): TMigrationProblem[] {
  const marker = CONTRACT_MARKER.exec(sql);
  if (marker) {
    const expand = marker[1]!;
    if (expand < name && all.includes(expand)) return [];
    return [
      {
        migration: name,
        statement: marker[0],
        reason: `the contract marker names ${expand}, which is not an earlier migration`,
      },
    ];
  }
  const statements = stripLiterals(sql)
    .split(";")
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const tables = namesCreated(
    statements,
    new RegExp(`^CREATE (?:TEMP |TEMPORARY |UNLOGGED )?TABLE (?:IF NOT EXISTS )?${NAME}`, "i"),
  );
  const recreated = namesCreated(
    statements,
    new RegExp(
      `^CREATE (?:OR REPLACE )?(?:UNIQUE )?(?:CONSTRAINT )?(?:INDEX|TRIGGER|FUNCTION) (?:CONCURRENTLY )?(?:IF NOT EXISTS )?${NAME}`,
      "i",
    ),
  );
  const defaulted = new Set<string>();
  for (const s of statements)
    for (const m of s.matchAll(new RegExp(`ALTER COLUMN ${NAME} SET DEFAULT`, "gi")))
      defaulted.add(ident(m[1]!));

  const swaps = swapsOf(statements);
  const swappedAway = new Set(swaps.map((w) => w.away));

  const problems: TMigrationProblem[] = [];
  const refuse = (statement: string, reason: string) => problems.push({ migration: name, statement, reason });
  for (const [i, s] of statements.entries()) {
    let m: RegExpExecArray | null;
    if (swaps.some((w) => w.renamed === i)) continue; // the swap's rename of the old table
    const pkey = new RegExp(
      `^ALTER TABLE ${NAME} ADD (?:CONSTRAINT ${NAME} )?PRIMARY KEY \\([^()]*\\)$`,
      "i",
    ).exec(s);
    if (pkey && swaps.some((w) => i > w.back && w.table === ident(pkey[1]!))) continue; // the swapped-in table's key
    if (
      (m = new RegExp(
        `^DROP (TABLE|VIEW|MATERIALIZED VIEW|TYPE|DOMAIN|SCHEMA|SEQUENCE) (?:IF EXISTS )?${NAME}`,
        "i",
      ).exec(s))
    ) {
      if (!tables.has(ident(m[2]!)) && !(m[1]!.toUpperCase() === "TABLE" && swappedAway.has(ident(m[2]!))))
        refuse(s, `DROP ${m[1]!.toUpperCase()}: the previous release still uses it`);
    } else if (
      (m = new RegExp(`^DROP (INDEX|TRIGGER|FUNCTION) (?:CONCURRENTLY )?(?:IF EXISTS )?${NAME}`, "i").exec(s))
    ) {
      if (!recreated.has(ident(m[2]!)))
        refuse(
          s,
          `DROP ${m[1]!.toUpperCase()} without creating it again: the previous release may rely on it`,
        );
    } else if (/^TRUNCATE\b/i.test(s)) refuse(s, "TRUNCATE: deletes what the previous release wrote");
    else if (/^ALTER TYPE\b.*\b(RENAME|DROP)\b/i.test(s))
      refuse(s, "a type's value or attribute renamed or dropped: the previous release still writes it");
    else if (/^ALTER (INDEX|SEQUENCE|VIEW|FUNCTION|TRIGGER|SCHEMA)\b.*\bRENAME\b/i.test(s))
      refuse(s, "RENAME: the previous release uses the old name");
    else if ((m = new RegExp(`^ALTER TABLE (?:ONLY )?(?:IF EXISTS )?${NAME} (.*)$`, "i").exec(s))) {
      if (tables.has(ident(m[1]!))) continue; // created by this migration: no release uses it yet
      const actions = m[2]!;
      if (/\bRENAME\b/i.test(actions)) refuse(s, "RENAME: the previous release uses the old name");
      // ALTER TABLE's DROP [COLUMN]; not DROP CONSTRAINT (below), nor a column's DROP DEFAULT / NOT NULL
      if (/\bDROP (?!CONSTRAINT\b|DEFAULT\b|NOT NULL\b|IDENTITY\b|EXPRESSION\b)/i.test(actions))
        refuse(s, "DROP COLUMN: the previous release still reads or writes it");
      if (/\bDROP CONSTRAINT\b/i.test(actions))
        refuse(s, "DROP CONSTRAINT: the previous release may rely on it");
      if (/\bALTER (?:COLUMN )?(?:"[^"]+"|\w+) (?:SET DATA )?TYPE\b/i.test(actions))
        refuse(s, "a column's type changed: the previous release reads and writes the old type");
      for (const c of actions.matchAll(new RegExp(`ALTER (?:COLUMN )?${NAME} SET NOT NULL`, "gi")))
        if (!defaulted.has(ident(c[1]!)))
          refuse(
            s,
            `SET NOT NULL on "${ident(c[1]!)}" without a default: the previous release inserts rows without it`,
          );
      for (const c of actions.split(/,(?![^(]*\))/))
        if (
          /^\s*ADD (?:COLUMN )?(?!CONSTRAINT\b)/i.test(c) &&
          /\bNOT NULL\b/i.test(c) &&
          !/\bDEFAULT\b/i.test(c)
        )
          refuse(s, "a NOT NULL column without a default: the previous release inserts rows without it");
      if (/\bADD (?:CONSTRAINT \S+ )?(CHECK|UNIQUE|FOREIGN KEY|PRIMARY KEY|EXCLUDE)\b/i.test(actions))
        refuse(s, "a new constraint on an existing table: it may refuse what the previous release writes");
    } else if ((m = new RegExp(`^CREATE UNIQUE INDEX .*? ON (?:ONLY )?${NAME}`, "i").exec(s))) {
      if (!tables.has(ident(m[1]!)))
        refuse(s, "a unique index on an existing table: it may refuse what the previous release writes");
    }
  }
  return problems;
}

/** The problems of every migration after the baseline, given each folder's name and SQL. */
export function checkMigrations(
  migrations: ReadonlyArray<{ name: string; sql: string }>,
): TMigrationProblem[] {
  const all = migrations.map((m) => m.name);
  return migrations
    .filter((m) => m.name > MIGRATION_CHECK_BASELINE)
    .flatMap((m) => checkMigration(m.name, m.sql, all));
}
