import pg from "pg";
import { logError } from "@/lib/log";

/** The channel the triggers of migration 20261124050000_job_wakeup_notify notify at commit. */
export const JOB_WORK_CHANNEL = "job_work";

export type TWorkListener = { close: () => Promise<void> };

/**
 * LISTENs for new background work on one dedicated connection (outside the pool, so it never takes
 * a connection from the requests) and calls `onWork` for every notification. A lost connection is
 * re-opened after a pause; meanwhile the driver's slow poll still finds the work.
 */
export function listenForWork(
  connectionString: string,
  onWork: () => void,
  { retryMs = 2000 }: { retryMs?: number } = {},
): TWorkListener {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let lastLog = 0;

  const reconnectLater = (err: unknown) => {
    if (closed || retry) return;
    if (Date.now() - lastLog > 60_000) {
      lastLog = Date.now();
      logError("job driver lost its LISTEN connection; polling until it is back", err);
    }
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, retryMs);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const c = new pg.Client({ connectionString });
    client = c;
    c.on("notification", () => onWork());
    c.on("error", (err) => {
      void c.end().catch(() => undefined);
      reconnectLater(err);
    });
    c.on("end", () => {
      if (client === c) reconnectLater(new Error("connection ended"));
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${JOB_WORK_CHANNEL}`);
      // Work committed while (re)connecting sent its notification to nobody: look once now.
      onWork();
    } catch (err) {
      void c.end().catch(() => undefined);
      reconnectLater(err);
    }
  }
  void connect();

  return {
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
