// Browser side of the dashboard API: JSON in, JSON out, the contract's error body turned into an Error.
export class DashboardApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

export async function fetchJson<T>(url: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const res = await fetch(url, {
    method: init?.method ?? (init?.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json" },
    body: init?.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const json = (await res.json().catch(() => null)) as
    (T & { error?: { message: string; details?: string[] } }) | null;
  if (!res.ok) {
    throw new DashboardApiError(
      res.status,
      json?.error?.message ?? `Request failed (${res.status})`,
      json?.error?.details ?? [],
    );
  }
  return json as T;
}

/** One line for an error note: the details say more than the generic message. */
export function errorText(err: unknown): string {
  if (err instanceof DashboardApiError && err.details.length) return err.details.join("; ");
  return err instanceof Error ? err.message : String(err);
}
