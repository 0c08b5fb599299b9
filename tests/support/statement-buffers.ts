import type pg from "pg";

export type TStatementPlan = {
  /** The statement's text, whitespace collapsed, at most 100 characters. */
  query: string;
  /** Shared buffers (hit + read) of the plan's top node: every node below it included. */
  buffers: number;
  ms: number;
};

/**
 * Every statement PostgreSQL runs on the pool's connections opened from now on, nested ones included (the
 * functions' statements, the triggers'), as auto_explain reports it: each new connection loads the module
 * (superuser) and receives its plans as messages (client_min_messages = log), so nothing is read from the
 * server's log. Timing is off: the buffers are the measure.
 */
export function watchStatements(pool: pg.Pool, onPlan: (plan: TStatementPlan) => void): void {
  pool.on("connect", (client: pg.PoolClient) => {
    // queued before anything the pool hands the connection out for
    void client.query(
      `LOAD 'auto_explain';
       SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_buffers = on;
       SET auto_explain.log_timing = off; SET auto_explain.log_nested_statements = on;
       SET client_min_messages = log`,
    );
    client.on("notice", (notice) => {
      const text = notice.message ?? "";
      const duration = /^duration: ([\d.]+) ms\s+plan:/.exec(text);
      if (!duration) return;
      const query = /Query Text: ([\s\S]*?)\n\S/.exec(text)?.[1] ?? /Query Text: (.*)/.exec(text)?.[1] ?? "?";
      const top = /Buffers: shared ([^\n]*)/.exec(text)?.[1] ?? "";
      let buffers = 0;
      for (const [, kind, count] of top.matchAll(/(hit|read)=(\d+)/g)) if (kind) buffers += Number(count);
      onPlan({
        query: query.trim().replace(/\s+/g, " ").slice(0, 100),
        buffers,
        ms: Number(duration[1]),
      });
    });
  });
}
