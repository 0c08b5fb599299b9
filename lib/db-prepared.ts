import { createHash } from "node:crypto";
import type pg from "pg";
import { boundedCache } from "@/lib/cache/bounded-cache";

// A bound on the named (prepared) statements each pooled connection keeps (lib/screening/README.md,
// "Named statements"). Their names are hashes of their texts, and a text changes with every client
// configuration (a rule edit) and with the shape of a write's row lists, while a pooled connection lives
// for hours: without a bound, the PostgreSQL backend would keep every statement (and its generic plan)
// ever prepared on it. Each connection keeps the names of its statements in least-recently-used order;
// preparing one more than the cap first deallocates the least recently used one on that connection.

/**
 * The name a statement is prepared under: a hash of its text, so a changed text gets a new name and two
 * texts never share one. The prefix tells the statement's family apart in pg_prepared_statements.
 */
export function statementName(text: string, prefix = "rss_"): string {
  return `${prefix}${createHash("sha1").update(text).digest("base64url")}`;
}

/** Named statements kept per connection (a screening needs a few per client configuration). */
export const PREPARED_STATEMENTS_PER_CONNECTION = 200;

type TNamedQuery = { name: string; text?: string };

/** node-postgres's per-connection record of the statements the backend has parsed (pg 8). */
type TConnectionState = { parsedStatements?: Record<string, string | undefined> };

function isNamed(config: unknown): config is TNamedQuery {
  return typeof config === "object" && config !== null && typeof (config as TNamedQuery).name === "string";
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

// SQLSTATEs of a name the session does not hold as this connection believes: taken (prepared by another
// connection to the same session: the embedded database, a transaction-mode pooler) or gone.
const NAME_TAKEN = "42P05";
const NAME_GONE = "26000";

/**
 * Bounds the named statements of one `pg` client (install it from the pool's `connect` event). Every
 * named query marks its name as most recently used. A new name beyond `cap` first deallocates the least
 * recently used statement (`DEALLOCATE`, one round trip, then the query itself) and drops it from
 * node-postgres's record of parsed statements, so a later query of that name parses it again. Should
 * the DEALLOCATE fail (the connection's transaction is already aborted), the statement still exists:
 * the record is kept, the name goes back first in line, and the query runs (and fails) as it would have.
 *
 * With `named: false` every query is sent unnamed. A named query that fails because its name is
 * already taken or already gone on the server is sent unnamed from then on by this connection (a
 * statement of that name is not this connection's to replace), and once more right away when it ran
 * outside a transaction block: one such error neither fails every later query nor the one at hand.
 */
export function capPreparedStatements(
  client: pg.Client | pg.PoolClient,
  cap = PREPARED_STATEMENTS_PER_CONNECTION,
  { named = true }: { named?: boolean } = {},
) {
  const names = new Map<string, true>();
  // names this connection sends unnamed: bounded like the named ones (the texts are)
  const unnamed = boundedCache<true>(cap);
  const connection = (client as unknown as { connection?: TConnectionState }).connection;
  // the prototype's query, looked up per call (tests count statements by patching it)
  const send = (...args: unknown[]): unknown =>
    (Object.getPrototypeOf(client) as { query: (...a: unknown[]) => unknown }).query.apply(client, args);
  const idle = () =>
    (client as unknown as { getTransactionStatus?: () => string | null }).getTransactionStatus?.() === "I";

  const firstInLine = (name: string) => {
    const rest = [...names.keys()].filter((n) => n !== name);
    names.clear();
    names.set(name, true);
    for (const n of rest) names.set(n, true);
  };

  const deallocate = async (victims: string[]) => {
    const parsed = connection?.parsedStatements;
    for (const name of victims) {
      const text = parsed?.[name];
      // never parsed (its Parse failed): nothing to deallocate, and DEALLOCATE of an unknown name
      // would abort the connection's transaction
      if (!parsed || text === undefined) continue;
      try {
        await send(`DEALLOCATE ${quoteIdent(name)}`);
        if (parsed[name] === text) delete parsed[name];
      } catch {
        if (!names.has(name)) firstInLine(name);
        return;
      }
    }
  };

  const withoutName = (config: TNamedQuery): Record<string, unknown> => {
    const { name: _name, ...rest } = config as TNamedQuery & Record<string, unknown>;
    return rest;
  };

  const recovering = (config: TNamedQuery, rest: unknown[], sent: Promise<unknown>, wasIdle: boolean) =>
    sent.catch((err: unknown) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (code !== NAME_TAKEN && code !== NAME_GONE) throw err;
      names.delete(config.name);
      const parsed = connection?.parsedStatements;
      if (parsed) delete parsed[config.name];
      unnamed.set(config.name, true);
      // inside a transaction block the error aborted it: the caller's transaction fails as a whole
      if (!wasIdle) throw err;
      return send(withoutName(config), ...rest) as Promise<unknown>;
    });

  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const config = args[0];
    // a submittable (pg.Query, cursor) is sent as it is
    if (!isNamed(config) || typeof (config as { submit?: unknown }).submit === "function")
      return send(...args);
    const callback = typeof args[args.length - 1] === "function" ? (args.pop() as TCallback) : null;
    const rest = args.slice(1);
    let result: Promise<unknown>;
    if (!named || unnamed.has(config.name)) {
      result = send(withoutName(config), ...rest) as Promise<unknown>;
    } else if (names.delete(config.name) || names.size < cap) {
      names.set(config.name, true);
      result = recovering(config, rest, send(config, ...rest) as Promise<unknown>, idle());
    } else {
      const victims: string[] = [];
      while (names.size >= cap) {
        const oldest = names.keys().next().value as string;
        names.delete(oldest);
        victims.push(oldest);
      }
      names.set(config.name, true);
      const wasIdle = idle();
      result = recovering(
        config,
        rest,
        deallocate(victims).then(() => send(config, ...rest) as Promise<unknown>),
        wasIdle,
      );
    }
    if (!callback) return result;
    result.then(
      (res) => callback(null, res),
      (err: Error) => callback(err),
    );
    return undefined;
  };
}

type TCallback = (err: Error | null, res?: unknown) => void;
