#!/usr/bin/env node
// Offline replacement for Prisma's native schema engine.
//
// The Prisma CLI (7.10.0) spawns the program named by PRISMA_SCHEMA_ENGINE_BINARY
// instead of downloading `schema-engine` from Prisma's binary host. This program
// speaks the same protocol as the native engine:
//
//   schema-engine --version
//   schema-engine [--datasource JSON] cli can-connect-to-database|create-database|drop-database
//   schema-engine [--datamodels PATH]... [--datasource JSON] [--enabled-preview-features a,b]
//       -> JSON-RPC 2.0, one message per line, on stdin/stdout
//
// and does the work with the Wasm build of the very same engine
// (@prisma/schema-engine-wasm, whose version suffix equals the CLI's engine hash),
// talking to PostgreSQL through @prisma/adapter-pg (node-postgres). It works with a
// real PostgreSQL server and with PGlite served by @electric-sql/pglite-socket.
//
// Logs go to stderr as JSON lines in the native engine's format
// ({ level, target, fields: { message, ... } }), which is what the CLI parses.

import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import * as wasmBindings from "@prisma/schema-engine-wasm/schema_engine_bg";

const ENGINE_HASH = "0edf323efd1d98336f3f0a68684b56f689b900d3";

// ---------------------------------------------------------------------------
// Logging (native format: JSON lines on stderr)
// ---------------------------------------------------------------------------

function log(level, message, extra = {}, target = "schema_engine::wasm_shim") {
  process.stderr.write(
    JSON.stringify({
      timestamp: new Date().toISOString(),
      level,
      fields: { message, ...extra },
      target,
    }) + "\n",
  );
}

const debugEnabled = /schema-?engine|\*/i.test(process.env.DEBUG ?? "");
function debug(message) {
  if (debugEnabled) log("DEBUG", message);
}

// ---------------------------------------------------------------------------
// Arguments
// ---------------------------------------------------------------------------

function parseArgs(argv) {
  const out = { datamodels: [], datasource: undefined, previewFeatures: [], cli: undefined, version: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case "--version":
      case "-V":
        out.version = true;
        break;
      case "--help":
      case "-h":
        out.help = true;
        break;
      case "-d":
      case "--datamodels":
        out.datamodels.push(argv[++i]);
        break;
      case "--datamodel":
        out.datamodels.push(argv[++i]);
        break;
      case "--datasource":
        out.datasource = JSON.parse(argv[++i]);
        break;
      case "--enabled-preview-features":
        out.previewFeatures = argv[++i].split(",").filter(Boolean);
        break;
      case "--extension-types":
        i++; // PostgreSQL extension types are not needed for the Wasm engine.
        break;
      case "cli":
        out.cli = argv.slice(i + 1);
        i = argv.length;
        break;
      default:
        if (a.startsWith("--datasource=")) out.datasource = JSON.parse(a.slice("--datasource=".length));
        else if (a.startsWith("--datamodels=")) out.datamodels.push(a.slice("--datamodels=".length));
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// PostgreSQL connection helpers
// ---------------------------------------------------------------------------

class UserFacingError extends Error {
  constructor(errorCode, message, meta = {}) {
    super(message);
    this.errorCode = errorCode;
    this.meta = meta;
  }
}

/** Parse a postgres:// URL into explicit node-postgres options (so `database` can be overridden). */
function pgConfigFromUrl(url, overrides = {}) {
  if (!url) {
    throw new UserFacingError(
      "P1012",
      "No database URL: set `datasource.url` in prisma.config.ts (DATABASE_URL).",
    );
  }
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new UserFacingError(
      "P1013",
      "The provided database string is invalid. The URL could not be parsed.",
    );
  }
  if (!/^postgres(ql)?:$/.test(u.protocol)) {
    throw new UserFacingError(
      "P1013",
      `The provided database string is invalid. This schema engine supports PostgreSQL URLs only (got \`${u.protocol}\`).`,
    );
  }
  const q = u.searchParams;
  const host =
    q.get("host") ?? (u.hostname ? decodeURIComponent(u.hostname).replace(/^\[|\]$/g, "") : "localhost");
  const config = {
    host,
    port: u.port ? Number(u.port) : q.get("port") ? Number(q.get("port")) : 5432,
    user: u.username ? decodeURIComponent(u.username) : (q.get("user") ?? process.env.PGUSER ?? "postgres"),
    password: u.password ? decodeURIComponent(u.password) : (q.get("password") ?? undefined),
    database: decodeURIComponent(u.pathname.replace(/^\//, "")) || "postgres",
    max: 4,
    allowExitOnIdle: true,
    idleTimeoutMillis: 1000,
    connectionTimeoutMillis: q.get("connect_timeout") ? Number(q.get("connect_timeout")) * 1000 : 10_000,
  };
  const sslmode = q.get("sslmode");
  if (sslmode === "require" || sslmode === "prefer" || sslmode === "no-verify") {
    config.ssl = { rejectUnauthorized: false };
  } else if (sslmode === "verify-full" || sslmode === "verify-ca") {
    config.ssl = true;
  }
  const schema = q.get("schema") ?? undefined;
  if (schema) config.options = `-c search_path="${schema.replace(/"/g, '""')}"`;
  return { config: { ...config, ...overrides }, schema, database: config.database };
}

// @prisma/adapter-pg refuses column types it has no mapping for. The engine's
// introspection queries select catalog columns of type `name`, `"char"`, etc.
// Their text form is exactly what the engine expects, so relabel them as text
// (arrays as text[]) before the result reaches the adapter.
const RELABEL = new Map([
  [18, 25], // "char"
  [19, 25], // name
  [22, 25], // int2vector
  [24, 25], // regproc
  [28, 25], // xid
  [29, 25], // cid
  [30, 25], // oidvector
  [194, 25], // pg_node_tree
  [1033, 25], // aclitem
  [2205, 25], // regclass
  [2206, 25], // regtype
  [3220, 25], // pg_lsn
  [3734, 25], // regconfig
  [4089, 25], // regnamespace
  [4096, 25], // regrole
  [1002, 1009], // "char"[]
  [1003, 1009], // name[]
  [1034, 1009], // aclitem[]
]);
const originalAddFields = pg.Result.prototype.addFields;
pg.Result.prototype.addFields = function addFields(fieldDescriptions) {
  for (const f of fieldDescriptions) {
    const to = RELABEL.get(f.dataTypeID);
    if (to !== undefined) f.dataTypeID = to;
  }
  return originalAddFields.call(this, fieldDescriptions);
};

// PostgreSQL 18 (which PGlite 0.5 is) records NOT NULL constraints in pg_constraint
// with contype 'n'. This engine build panics on that unknown constraint type while
// introspecting check/exclusion constraints, so leave those rows out (NOT NULL is
// read from pg_attribute anyway).
const SQL_REWRITES = [[/AND contype NOT IN \('p', 'u', 'f'\)/g, "AND contype NOT IN ('p', 'u', 'f', 'n')"]];
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function query(config, values, callback) {
  const rewrite = (text) => SQL_REWRITES.reduce((t, [re, to]) => t.replace(re, to), text);
  if (typeof config === "string") config = rewrite(config);
  else if (config && typeof config.text === "string") {
    if (typeof config.submit === "function") config.text = rewrite(config.text);
    else config = { ...config, text: rewrite(config.text) };
  }
  return originalQuery.call(this, config, values, callback);
};

function quoteIdent(name) {
  return `"${String(name).replace(/"/g, '""')}"`;
}

async function withClient(config, fn) {
  const client = new pg.Client(config);
  client.on("error", () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function mapConnectionError(e, config) {
  if (e instanceof UserFacingError) return e;
  const code = e?.code;
  const location = `${config.host}:${config.port}`;
  if (code === "3D000") {
    return new UserFacingError(
      "P1003",
      `Database \`${config.database}\` does not exist on the database server at \`${location}\`.`,
      { database_name: config.database, database_host: config.host, database_port: config.port },
    );
  }
  if (code === "28P01" || code === "28000") {
    return new UserFacingError(
      "P1000",
      `Authentication failed against database server at \`${config.host}\`, the provided database credentials for \`${config.user}\` are not valid.`,
      { database_user: config.user, database_host: config.host },
    );
  }
  if (
    code === "ECONNREFUSED" ||
    code === "ENOTFOUND" ||
    code === "EHOSTUNREACH" ||
    code === "ETIMEDOUT" ||
    /timeout/i.test(e?.message ?? "")
  ) {
    return new UserFacingError(
      "P1001",
      `Can't reach database server at \`${location}\`\n\nPlease make sure your database server is running at \`${location}\`.`,
      {
        database_host: config.host,
        database_port: config.port,
      },
    );
  }
  return new UserFacingError("P1000", `Database error: ${e?.message ?? String(e)}`);
}

async function canConnect(url) {
  const { config } = pgConfigFromUrl(url);
  try {
    await withClient(config, (c) => c.query("SELECT 1"));
  } catch (e) {
    throw mapConnectionError(e, config);
  }
}

/** The Wasm engine has no createDatabase: connect to a maintenance database and CREATE DATABASE. */
async function createDatabase(url) {
  const { config, database } = pgConfigFromUrl(url);
  const candidates = ["postgres", "template1"].filter((d) => d !== database);
  let lastError;
  for (const admin of candidates) {
    try {
      await withClient({ ...config, database: admin }, async (c) => {
        const exists = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
        if (exists.rowCount === 0) await c.query(`CREATE DATABASE ${quoteIdent(database)}`);
      });
      return database;
    } catch (e) {
      lastError = e;
      if (e?.code === "42P04") return database; // already exists
      if (e?.code !== "3D000") break;
    }
  }
  throw mapConnectionError(lastError, config);
}

async function dropDatabase(url) {
  const { config, database } = pgConfigFromUrl(url);
  await withClient({ ...config, database: database === "postgres" ? "template1" : "postgres" }, (c) =>
    c.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)}`),
  );
}

// ---------------------------------------------------------------------------
// Driver adapter factory (with our own shadow database handling)
// ---------------------------------------------------------------------------

async function isPGlite(config) {
  try {
    const r = await withClient(config, (c) => c.query("SELECT version() AS v"));
    return /pglite|wasm32/i.test(String(r.rows[0]?.v ?? ""));
  } catch {
    return false;
  }
}

/** Drop everything in a database the user dedicated to shadow use (shadowDatabaseUrl). */
async function wipeDatabase(config) {
  await withClient(config, async (c) => {
    const { rows } = await c.query(
      `SELECT nspname FROM pg_namespace
        WHERE nspname NOT IN ('information_schema', 'pg_catalog', 'pg_toast')
          AND nspname NOT LIKE 'pg\\_temp\\_%' AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%'`,
    );
    for (const { nspname } of rows) await c.query(`DROP SCHEMA ${quoteIdent(nspname)} CASCADE`);
    await c.query(`CREATE SCHEMA IF NOT EXISTS public`);
  });
}

function makePgAdapterFactory(config, schema) {
  const pool = new pg.Pool(config);
  pool.on("error", (e) => debug(`idle client error: ${e.message}`));
  const factory = new PrismaPg(pool, { schema, disposeExternalPool: true });
  // Run migration scripts as one simple-protocol query (one implicit transaction, and
  // no naive splitting on `;`, which would break function bodies and string literals).
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.executeScript = async (script) => {
      try {
        await pool.query(script);
      } catch (e) {
        adapter.onError(e);
      }
    };
    return adapter;
  };
  return factory;
}

let pgliteShadow; // lazily started in-process PGlite for shadow databases

async function startPGliteShadow() {
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-socket"),
  ]);
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 10 });
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  log("INFO", `Started an in-memory PGlite shadow database on port ${port}.`);
  return {
    config: {
      host: "127.0.0.1",
      port,
      user: "postgres",
      database: "postgres",
      max: 4,
      allowExitOnIdle: true,
      idleTimeoutMillis: 1000,
    },
    async close() {
      await server.stop().catch(() => {});
      await db.close().catch(() => {});
    },
  };
}

/** Stand-in adapter used when no datasource URL was configured. */
function disconnectedAdapter() {
  const fail = async () => {
    throw new Error(
      "No database URL configured: set `datasource.url` in prisma.config.ts (DATABASE_URL) to run this command.",
    );
  };
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    // Answer the engine's startup probe (schema exists, version, version number).
    async queryRaw(query) {
      if (/^SELECT EXISTS\(SELECT 1 FROM pg_namespace WHERE nspname = \$1\), version\(\)/.test(query.sql)) {
        return {
          columnNames: ["exists", "version", "numeric_version"],
          columnTypes: [ColumnTypeEnum.Boolean, ColumnTypeEnum.Text, ColumnTypeEnum.Int32],
          rows: [[true, "PostgreSQL 15.0 (no database configured)", 150000]],
        };
      }
      return fail();
    },
    executeRaw: fail,
    executeScript: fail,
    startTransaction: fail,
    getConnectionInfo: () => ({ supportsRelationJoins: true }),
    dispose: async () => {},
  };
}

function makeAdapterFactory(datasource) {
  const url = datasource?.url;
  const shadowUrl = datasource?.shadowDatabaseUrl;
  const cleanups = [];
  let main;
  const mainFactory = () => {
    if (!main) {
      const { config, schema } = pgConfigFromUrl(url);
      main = { config, schema, factory: makePgAdapterFactory(config, schema) };
    }
    return main;
  };

  const raw = {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    async connect() {
      // The Wasm engine connects when it starts, even for commands that need no
      // database (`migrate diff --from-empty --to-schema ...`, no DATABASE_URL).
      if (!url) return disconnectedAdapter();
      const { factory } = mainFactory();
      return factory.connect();
    },
    async connectToShadowDb() {
      if (shadowUrl) {
        if (shadowUrl === url) {
          throw new Error(
            "The shadow database you configured appears to be the same as the main database. Please specify another shadow database.",
          );
        }
        const { config, schema } = pgConfigFromUrl(shadowUrl);
        log("INFO", "Using the shadow database from shadowDatabaseUrl (wiping it first).");
        await wipeDatabase(config);
        const adapter = await makePgAdapterFactory(config, schema).connect();
        return adapter;
      }
      const { config, schema } = mainFactory();
      if (await isPGlite(config)) {
        // PGlite's socket server serves exactly one database: whatever the database
        // name in the startup message, you get the same one. Use a throwaway
        // in-memory PGlite instead.
        pgliteShadow ??= await startPGliteShadow();
        const adapter = await makePgAdapterFactory(pgliteShadow.config, undefined).connect();
        // Each shadow use must start empty.
        await wipeDatabase(pgliteShadow.config);
        return adapter;
      }
      const name = `prisma_migrate_shadow_db_${randomUUID()}`;
      try {
        await withClient(config, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
      } catch (e) {
        throw new Error(
          `Could not create a shadow database (${e.message}). Grant CREATEDB to the database user, or set SHADOW_DATABASE_URL (datasource.shadowDatabaseUrl) to a database that may be wiped.`,
        );
      }
      const shadowConfig = { ...config, database: name };
      const adapter = await makePgAdapterFactory(shadowConfig, schema).connect();
      const dispose = adapter.dispose.bind(adapter);
      let dropped = false;
      const drop = async () => {
        if (dropped) return;
        dropped = true;
        await withClient(config, (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)}`)).catch((e) =>
          log("WARN", `Could not drop shadow database ${name}: ${e.message}`),
        );
      };
      cleanups.push(drop);
      adapter.dispose = async () => {
        await dispose();
        await drop();
      };
      return adapter;
    },
  };
  return {
    factory: bindMigrationAwareSqlAdapterFactory(raw),
    async cleanup() {
      for (const c of cleanups.splice(0)) await c();
    },
  };
}

// ---------------------------------------------------------------------------
// Wasm engine
// ---------------------------------------------------------------------------

let wasmModule; // compiled once
let wasmInstances = 0;

/**
 * Instantiate the Wasm engine. Each call gives a separate instance with its own
 * copy of the wasm-bindgen glue module: after `applyMigrations` an instance
 * forgets its shadow database factory for good ("PostgreSQL shadow DB must be
 * provided through an external factory"), and only a brand-new instance recovers.
 */
async function loadWasm() {
  globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
    message: "",
    set_message(m) {
      this.message = m;
    },
  };
  const glueUrl = import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  if (!wasmModule) {
    const bytes = readFileSync(fileURLToPath(glueUrl).replace(/\.js$/, ".wasm"));
    wasmModule = new WebAssembly.Module(bytes);
  }
  const n = wasmInstances++;
  const bindings = n === 0 ? wasmBindings : await import(`${glueUrl}?instance=${n}`);
  const instance = new WebAssembly.Instance(wasmModule, { "./schema_engine_bg.js": bindings });
  bindings.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return bindings;
}

class Panic extends Error {}

function isWasmPanic(e) {
  return e instanceof WebAssembly.RuntimeError || /unreachable|RuntimeError/.test(String(e?.name ?? ""));
}

function panicMessage(e) {
  return globalThis.PRISMA_WASM_PANIC_REGISTRY?.message || e?.message || String(e);
}

function engineLogCallback(line) {
  // The Wasm engine reports tracing events as JSON strings.
  if (typeof line !== "string") line = JSON.stringify(line);
  try {
    JSON.parse(line);
    if (debugEnabled) process.stderr.write(line.trimEnd() + "\n");
  } catch {
    if (debugEnabled) log("DEBUG", line);
  }
}

let lastAdapter; // the adapter of the engine being created (for error lookups)

async function newEngine(opts) {
  const bindings = await loadWasm();
  const datamodels = opts.datamodels.length
    ? opts.datamodels.map((p) => [p, readFileSync(p, "utf8")])
    : undefined;
  const adapter = makeAdapterFactory(opts.datasource);
  lastAdapter = adapter;
  const engine = await bindings.SchemaEngine.new({ datamodels }, engineLogCallback, adapter.factory);
  return { engine, adapter };
}

// ---------------------------------------------------------------------------
// JSON-RPC server
// ---------------------------------------------------------------------------

function send(msg) {
  process.stdout.write(JSON.stringify(msg) + "\n");
}

let nextOutgoingId = 1_000_000;
const pendingOutgoing = new Map();
function request(method, params) {
  const id = nextOutgoingId++;
  return new Promise((resolve) => {
    pendingOutgoing.set(id, resolve);
    send({ jsonrpc: "2.0", id, method, params });
  });
}

const ADAPTER_ERROR_CODES = {
  DatabaseNotReachable: "P1001",
  DatabaseDoesNotExist: "P1003",
  AuthenticationFailed: "P1000",
  DatabaseAccessDenied: "P1010",
  SocketTimeout: "P1008",
  TooManyConnections: "P1001",
};

/** Errors thrown by the adapter reach us as "External error id#N": look the original up. */
function resolveExternalError(e, registries) {
  const m = /External error id#(\d+)/.exec(String(e?.message ?? ""));
  if (!m) return e;
  let original;
  for (const r of registries) {
    original = r?.consumeError(Number(m[1]))?.error;
    if (original) break;
  }
  if (!original) return e;
  const cause = original.cause;
  if (cause?.kind) {
    const code = ADAPTER_ERROR_CODES[cause.kind];
    const detail =
      cause.kind === "postgres"
        ? `${cause.message}${cause.detail ? `\nDETAIL: ${cause.detail}` : ""}${cause.hint ? `\nHINT: ${cause.hint}` : ""}`
        : cause.kind === "DatabaseNotReachable"
          ? `Can't reach database server at \`${cause.host}:${cause.port}\``
          : cause.kind === "DatabaseDoesNotExist"
            ? `Database \`${cause.db}\` does not exist`
            : `${cause.kind}${cause.user ? ` (user \`${cause.user}\`)` : ""}${cause.cause ? `: ${cause.cause}` : ""}`;
    return code ? new UserFacingError(code, detail) : new Error(detail);
  }
  return original instanceof Error ? original : new Error(String(original));
}

function errorToRpc(e) {
  if (e instanceof UserFacingError) {
    return {
      code: 4466,
      message: "An error happened. Check the data field for details.",
      data: { is_panic: false, message: e.message, meta: e.meta, error_code: e.errorCode },
    };
  }
  // Errors thrown by the Wasm engine carry the user-facing error in their message, and
  // sometimes an error code (e.g. P3005) in properties.
  const code = e?.error_code ?? e?.errorCode ?? e?.code;
  const message = e?.message ?? String(e);
  const data = { is_panic: false, message, meta: e?.meta ?? {} };
  if (typeof code === "string" && /^P\d{4}$/.test(code)) data.error_code = code;
  return { code: 4466, message: "An error happened. Check the data field for details.", data };
}

async function serveRpc(opts) {
  // Created on the first request, so that a connection failure becomes an RPC error.
  let current;

  const callEngine = async (method, params) => {
    current ??= await newEngine(opts);
    if (typeof current.engine[method] !== "function") {
      throw new UserFacingError(
        "P1000",
        `The method \`${method}\` is not supported by the Wasm schema engine.`,
      );
    }
    return current.engine[method](params);
  };

  const handlers = {
    async createDatabase(params) {
      const ds = params?.datasource;
      const url = ds?.tag === "ConnectionString" ? ds.url : (opts.datasource?.url ?? ds?.url);
      return { databaseName: await createDatabase(url) };
    },
    async getDatabaseVersion(params) {
      return callEngine("version", params ?? null);
    },
    async diff(params) {
      const result = await callEngine("diff", params);
      if (result?.stdout != null && result.stdout !== "") {
        await request("print", { content: result.stdout.replace(/\n$/, "") });
      }
      return { exitCode: result?.exitCode ?? 0 };
    },
    async debugPanic() {
      current ??= await newEngine(opts);
      current.engine.debugPanic();
      return {};
    },
  };

  const run = async (method, params) => {
    const handler = handlers[method];
    const exec = () => (handler ? handler(params) : callEngine(method, params ?? {}));
    try {
      return await exec();
    } catch (err) {
      if (isWasmPanic(err)) throw new Panic(panicMessage(err));
      const e = resolveExternalError(err, [
        current?.adapter.factory.errorRegistry,
        lastAdapter?.factory.errorRegistry,
      ]);
      // After applyMigrations has applied something, this Wasm engine build no
      // longer reaches the shadow database from evaluateDataLoss/createMigration
      // ("PostgreSQL shadow DB must be provided through an external factory").
      // A brand-new instance, primed with devDiagnostic on the same migrations
      // (which does go through our shadow factory), works.
      if (/must be provided through an external factory/.test(String(e?.message ?? e))) {
        debug(`retrying ${method} with a fresh engine`);
        const old = current;
        current = await newEngine(opts);
        await old?.adapter.cleanup().catch(() => {});
        try {
          old?.engine.free();
        } catch {}
        if (params?.migrationsList) {
          await current.engine
            .devDiagnostic({
              migrationsList: params.migrationsList,
              filters: params.filters ?? { externalTables: [], externalEnums: [] },
            })
            .catch((err3) => debug(`priming devDiagnostic failed: ${err3?.message ?? err3}`));
        }
        try {
          return await exec();
        } catch (err2) {
          if (isWasmPanic(err2)) throw new Panic(panicMessage(err2));
          throw resolveExternalError(err2, [current?.adapter.factory.errorRegistry]);
        }
      }
      throw e;
    }
  };

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let queue = Promise.resolve();
  rl.on("line", (line) => {
    if (!line.trim()) return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      log("ERROR", `Could not parse JSON-RPC message: ${line.slice(0, 200)}`);
      return;
    }
    if (msg.method === undefined && msg.id !== undefined && pendingOutgoing.has(msg.id)) {
      pendingOutgoing.get(msg.id)(msg.result);
      pendingOutgoing.delete(msg.id);
      return;
    }
    // Requests are handled one at a time, in order, like the native engine.
    queue = queue.then(async () => {
      debug(`rpc ${msg.method}`);
      try {
        const result = await run(msg.method, msg.params);
        send({ jsonrpc: "2.0", id: msg.id, result: result === undefined ? null : result });
      } catch (e) {
        if (e instanceof Panic) {
          log("ERROR", `PANIC: ${e.message}`, { backtrace: "" }, "schema_engine::wasm_shim");
          send({
            jsonrpc: "2.0",
            id: msg.id,
            error: {
              code: 4466,
              message: "An error happened. Check the data field for details.",
              data: { is_panic: true, message: e.message, error: { message: e.message }, backtrace: "" },
            },
          });
          await shutdown(current, 101);
          return;
        }
        send({ jsonrpc: "2.0", id: msg.id, error: errorToRpc(e) });
      }
    });
  });
  rl.on("close", () => {
    queue.then(() => shutdown(current, 0));
  });
}

async function shutdown(current, code) {
  try {
    await current?.adapter.cleanup();
  } catch {}
  if (pgliteShadow) await pgliteShadow.close().catch(() => {});
  // Flush stdout/stderr before exiting.
  await new Promise((r) => process.stdout.write("", r));
  await new Promise((r) => process.stderr.write("", r));
  process.exit(code);
}

// ---------------------------------------------------------------------------
// `cli` subcommands (used by the CLI before migrate dev / reset / db push)
// ---------------------------------------------------------------------------

async function runCliCommand(opts) {
  const [command] = opts.cli;
  const url = opts.datasource?.url;
  // The CLI ignores the first stderr line of `cli` subcommands.
  log("INFO", `schema-engine (wasm shim) cli ${command}`);
  try {
    switch (command) {
      case "can-connect-to-database":
        await canConnect(url);
        break;
      case "create-database": {
        const name = await createDatabase(url);
        log("INFO", `Database '${name}' was successfully created.`);
        break;
      }
      case "drop-database":
        await dropDatabase(url);
        log("INFO", "The database was successfully dropped.");
        break;
      default:
        throw new UserFacingError("P1000", `Unknown cli command: ${command}`);
    }
    process.exitCode = 0;
  } catch (e) {
    const err = e instanceof UserFacingError ? e : new UserFacingError("P1000", e?.message ?? String(e));
    log("ERROR", err.message, { error_code: err.errorCode }, "schema_engine::logger");
    process.exitCode = 1;
  }
}

// ---------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------

process.on("unhandledRejection", (e) => {
  log("ERROR", `PANIC: ${e?.stack ?? e}`, { backtrace: e?.stack ?? "" });
  process.exit(101);
});
process.on("uncaughtException", (e) => {
  log("ERROR", `PANIC: ${e?.stack ?? e}`, { backtrace: e?.stack ?? "" });
  process.exit(101);
});

const opts = parseArgs(process.argv.slice(2));
if (opts.version) {
  process.stdout.write(`schema-engine-cli ${ENGINE_HASH}\n`);
} else if (opts.help) {
  process.stdout.write(
    "schema-engine (Wasm shim for offline use)\n\nUsage: schema-engine [--datamodels PATH]... [--datasource JSON] [cli <can-connect-to-database|create-database|drop-database>]\n",
  );
} else if (opts.cli) {
  await runCliCommand(opts);
} else {
  await serveRpc(opts);
}
