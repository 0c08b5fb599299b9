// `npm run cluster:local`: two instances of the service (`npm start`, each with its server processes)
// on one PostgreSQL, through PgBouncer (session pooling), behind HAProxy, on this machine. PgBouncer
// and HAProxy are Debian's (`apt-get install -y haproxy pgbouncer`); this script writes their
// configuration into a temporary folder and runs them in the foreground as its own children (no system
// service), so Ctrl-C stops everything. `e2e/cluster.spec.ts` starts the same cluster through
// `startLocalCluster`.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/rss npm run cluster:local
//
// DATABASE_URL is PostgreSQL itself (migrations run there, before anything starts); the instances
// connect through PgBouncer. CLUSTER_PORT (default 3000) is HAProxy's port; the instances listen on
// the next two, PgBouncer on CLUSTER_PGBOUNCER_PORT (default 6433; 6432 is its system service's).
// Every other variable (WEB_CONCURRENCY, NEXTAUTH_SECRET, METRICS_TOKEN, ...) is passed to both
// instances. Build first (`npx next build`).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { defaultServerProcesses } from "../lib/startup/server-processes";

export type TInstance = {
  name: string;
  port: number;
  /** http://127.0.0.1:PORT, the instance itself (not through HAProxy). */
  base: string;
  running: () => boolean;
  /** `npm start` in its own process group; resolves once it answers /readyz with 200. */
  start: () => Promise<void>;
  /** SIGKILL: the whole process group at once (a machine lost); SIGTERM: the launcher, which drains. */
  stop: (signal: "SIGKILL" | "SIGTERM") => Promise<void>;
};

export type TLocalCluster = {
  /** HAProxy: http://127.0.0.1:PORT, balancing over the instances that answer /readyz with 200. */
  base: string;
  instances: [TInstance, TInstance];
  /** The instances' DATABASE_URL: PgBouncer. */
  pooledUrl: string;
  stop: () => Promise<void>;
};

export type TClusterOptions = {
  /** PostgreSQL itself. */
  databaseUrl: string;
  port: number;
  instancePorts: [number, number];
  pgbouncerPort: number;
  /** The instances' environment (process.env, less what the cluster sets). */
  env?: NodeJS.ProcessEnv;
  /** Where the children's output goes (default: this process's, each line prefixed). */
  output?: "inherit" | "ignore";
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Forwards a child's output line by line with a prefix, so four programs stay readable. */
function forward(child: ChildProcess, prefix: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream?.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(`${prefix} ${line}\n`);
    });
  }
}

export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  exited: () => boolean,
  timeoutMs = 120_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (exited()) throw new Error(`${what} exited before it was ready`);
    if (Date.now() > deadline) throw new Error(`${what} was not ready within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

/**
 * PgBouncer in session mode: each of the app's pooled connections holds a server connection while it
 * is open, so named (prepared) statements, `LISTEN` and session settings work as on PostgreSQL
 * itself. (PgBouncer 1.18, Debian 12's, has no `max_prepared_statements`: transaction mode would need
 * DATABASE_PREPARED_STATEMENTS=off and JOB_DRIVER_LISTEN=off.) Its pool holds every connection the
 * instances may open: (DATABASE_POOL_SIZE + JOB_DRIVER_POOL_SIZE + 1) × processes × instances.
 */
function pgbouncerConfig(database: URL, port: number, dir: string, serverConnections: number): string {
  const name = decodeURIComponent(database.pathname.slice(1));
  const user = decodeURIComponent(database.username || "postgres");
  const target = [
    `host=${database.hostname}`,
    `port=${database.port || "5432"}`,
    `dbname=${name}`,
    `user=${user}`,
    ...(database.password ? [`password=${decodeURIComponent(database.password)}`] : []),
  ].join(" ");
  writeFileSync(path.join(dir, "userlist.txt"), `"${user}" ""\n`);
  return [
    "[databases]",
    `${name} = ${target}`,
    "",
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    // the clients are this machine's instances; PgBouncer authenticates to PostgreSQL with the URL's credentials
    "auth_type = trust",
    `auth_file = ${path.join(dir, "userlist.txt")}`,
    "pool_mode = session",
    `default_pool_size = ${serverConnections}`,
    `max_db_connections = ${serverConnections}`,
    `max_client_conn = ${serverConnections * 2 + 20}`,
    // a server connection given back by a client is reset before the next client gets it
    "server_reset_query = DISCARD ALL",
    "ignore_startup_parameters = extra_float_digits,options",
    "log_connections = 0",
    "log_disconnections = 0",
    "",
  ].join("\n");
}

/**
 * HAProxy: round robin over the instances, each checked on /readyz every second (out after 2
 * failures, so a draining or dead instance stops getting requests; back after 2 successes). A
 * connection refused is retried once on the other instance (`option redispatch`); a request already
 * sent to an instance that dies is not retried (a screening is not replayed behind the caller's back).
 */
// HAProxy polls /readyz every CHECK_INTERVAL_MS and takes an instance out after CHECK_FALL failures.
const CHECK_INTERVAL_MS = 1000;
const CHECK_FALL = 2;
/**
 * What an instance behind that HAProxy needs as SHUTDOWN_DELAY_MS: it goes on serving until HAProxy has
 * taken it out (CHECK_FALL checks, plus one interval). With less, it closes its idle keep-alive connections
 * while HAProxy may still send a request on one; HAProxy then closes the client's connection unanswered.
 */
export const DRAIN_DELAY_MS = CHECK_INTERVAL_MS * (CHECK_FALL + 1);

function haproxyConfig(port: number, instances: TInstance[]): string {
  return [
    "global",
    "  maxconn 2000",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  retries 1",
    "  option redispatch",
    "frontend service",
    `  bind 127.0.0.1:${port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    `  default-server inter ${CHECK_INTERVAL_MS}ms fall ${CHECK_FALL} rise 2`,
    ...instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check`),
    "",
  ].join("\n");
}

/** One instance: `npm start` of the checkout in `cwd` (default: this one), on `port`. */
export function localInstance(
  name: string,
  port: number,
  env: NodeJS.ProcessEnv,
  output: "inherit" | "ignore",
  cwd = process.cwd(),
): TInstance {
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const running = () => child !== null && child.exitCode === null && child.signalCode === null;
  return {
    name,
    port,
    base,
    running,
    start: async () => {
      const started = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
        env: { SHUTDOWN_DELAY_MS: String(DRAIN_DELAY_MS), ...env, PORT: String(port) },
        cwd,
        detached: true,
        stdio: ["ignore", output === "inherit" ? "pipe" : "ignore", output === "inherit" ? "pipe" : "ignore"],
      });
      if (output === "inherit") forward(started, `[${name}]`);
      child = started;
      await waitUntil(
        `instance ${name}`,
        async () => (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) })).status === 200,
        () => started.exitCode !== null || started.signalCode !== null,
      );
    },
    stop: async (signal) => {
      const c = child;
      if (!c || !running()) return;
      const exited = new Promise<void>((resolve) => c.once("exit", () => resolve()));
      if (signal === "SIGKILL") process.kill(-c.pid!, "SIGKILL");
      else c.kill("SIGTERM");
      await exited;
      child = null;
    },
  };
}

/**
 * HAProxy on `port` in front of `instances` (configuration written into `dir`), in the foreground as
 * this process's child; resolves once it answers /readyz with 200 (at least one instance is ready).
 */
export async function startHaproxy(
  port: number,
  instances: TInstance[],
  dir: string,
  output: "inherit" | "ignore",
): Promise<ChildProcess> {
  writeFileSync(path.join(dir, "haproxy.cfg"), haproxyConfig(port, instances));
  const haproxy = spawn("haproxy", ["-db", "-f", path.join(dir, "haproxy.cfg")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (output === "inherit") forward(haproxy, "[haproxy]");
  else {
    haproxy.stdout?.resume();
    haproxy.stderr?.resume();
  }
  try {
    await waitUntil(
      "HAProxy",
      async () =>
        (await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) })).status ===
        200,
      () => haproxy.exitCode !== null,
      30_000,
    );
  } catch (err) {
    haproxy.kill("SIGKILL");
    throw err;
  }
  return haproxy;
}

/** Starts PgBouncer, both instances and HAProxy (migrations first, on PostgreSQL itself). */
export async function startLocalCluster(options: TClusterOptions): Promise<TLocalCluster> {
  const { databaseUrl, port, instancePorts, pgbouncerPort, output = "inherit" } = options;
  const env = { ...(options.env ?? process.env) };
  const versions = [
    ["pgbouncer", "-V"],
    ["haproxy", "-v"],
  ] as const;
  for (const [program, version] of versions)
    try {
      execFileSync(program, [version], { stdio: "ignore" });
    } catch {
      throw new Error(`${program} is not installed: apt-get install -y haproxy pgbouncer`);
    }
  const database = new URL(databaseUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), "rss-cluster-"));
  // PgBouncer refuses to run as root: as root it runs as `nobody`, which must read its configuration.
  chmodSync(dir, 0o755);
  const children: ChildProcess[] = [];
  const stopChildren = async () => {
    for (const c of children.reverse())
      if (c.exitCode === null && c.signalCode === null) {
        const exited = new Promise((r) => c.once("exit", r));
        c.kill("SIGTERM");
        await Promise.race([exited, sleep(5000)]);
        if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
      }
  };

  execFileSync(process.execPath, [path.resolve("node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    env: { ...env, DATABASE_URL: databaseUrl },
    stdio: output === "inherit" ? "inherit" : "pipe",
  });

  // per instance: WEB_CONCURRENCY, else what `npm start` would choose for this database shared by the two
  // instances (at least one each); passed on, so that PgBouncer is sized for what they run (an invalid
  // WEB_CONCURRENCY is passed on as it is, for the instances to refuse)
  const processes = positiveNumber(
    env.WEB_CONCURRENCY,
    Math.max(1, Math.floor(defaultServerProcesses(databaseUrl) / instancePorts.length)),
  );
  const perProcess =
    positiveNumber(env.DATABASE_POOL_SIZE, 10) + positiveNumber(env.JOB_DRIVER_POOL_SIZE, 4) + 1;
  const serverConnections = perProcess * processes * instancePorts.length;
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    pgbouncerConfig(database, pgbouncerPort, dir, serverConnections),
  );
  const runAsRoot = process.getuid?.() === 0;
  const pgbouncer = spawn(
    "pgbouncer",
    [...(runAsRoot ? ["-u", "nobody"] : []), path.join(dir, "pgbouncer.ini")],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(pgbouncer);
  if (output === "inherit") forward(pgbouncer, "[pgbouncer]");
  else {
    pgbouncer.stdout?.resume();
    pgbouncer.stderr?.resume();
  }
  const pooled = new URL(databaseUrl);
  pooled.port = String(pgbouncerPort);
  pooled.hostname = "127.0.0.1";
  const pooledUrl = pooled.toString();
  try {
    await waitUntil(
      "PgBouncer",
      async () => {
        const pg = (await import("pg")).default;
        const c = new pg.Client({ connectionString: pooledUrl, connectionTimeoutMillis: 2000 });
        await c.connect();
        await c.query("SELECT 1");
        await c.end();
        return true;
      },
      () => pgbouncer.exitCode !== null,
      30_000,
    );

    const instanceEnv: NodeJS.ProcessEnv = {
      ...env,
      NODE_ENV: "production",
      DATABASE_URL: pooledUrl,
      WEB_CONCURRENCY: env.WEB_CONCURRENCY || String(processes),
      NEXTAUTH_URL: env.NEXTAUTH_URL ?? `http://127.0.0.1:${port}`,
    };
    const instances: [TInstance, TInstance] = [
      localInstance("app1", instancePorts[0], instanceEnv, output),
      localInstance("app2", instancePorts[1], instanceEnv, output),
    ];
    try {
      await Promise.all(instances.map((i) => i.start()));
      children.push(await startHaproxy(port, instances, dir, output));
      const base = `http://127.0.0.1:${port}`;
      return {
        base,
        instances,
        pooledUrl,
        stop: async () => {
          await Promise.all(instances.map((i) => i.stop("SIGTERM")));
          await stopChildren();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      await Promise.all(instances.map((i) => i.stop("SIGKILL")));
      throw err;
    }
  } catch (err) {
    await stopChildren();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error("DATABASE_URL must name the PostgreSQL database (postgresql://user@host:5432/name)");
    process.exit(2);
  }
  const port = positiveNumber(process.env.CLUSTER_PORT, 3000);
  const cluster = await startLocalCluster({
    databaseUrl,
    port,
    instancePorts: [port + 1, port + 2],
    pgbouncerPort: positiveNumber(process.env.CLUSTER_PGBOUNCER_PORT, 6433),
  });
  console.log(
    [
      `Cluster up: ${cluster.base} (HAProxy) → ${cluster.instances.map((i) => i.base).join(", ")}`,
      `instances connect through PgBouncer: ${cluster.pooledUrl}`,
      "Ctrl-C stops it.",
    ].join("\n"),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void cluster.stop().finally(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
