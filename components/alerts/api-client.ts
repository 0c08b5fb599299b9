// Browser side of the reviewer screens' dashboard API: JSON in and out, the contract's error body as an Error.
export class ReviewApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string[] = [],
  ) {
    super(details.length ? details.join("; ") : message);
  }
}

export async function requestJson<T>(url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as {
    error?: { message: string; details?: string[] };
  } | null;
  if (!res.ok)
    throw new ReviewApiError(
      res.status,
      json?.error?.message ?? `Request failed (${res.status})`,
      json?.error?.details,
    );
  return json as T;
}

/** Query string of the non-empty values. */
export function toQuery(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const text = search.toString();
  return text ? `?${text}` : "";
}
