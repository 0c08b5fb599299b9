// The one browser client of the dashboard API: JSON in and out, the contract's error body thrown as ApiError.

type TErrorBody = { error?: { type?: string; message?: string; details?: string[] } };

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly details: string[];

  constructor({
    status,
    type,
    message,
    details,
  }: {
    status: number;
    type: string;
    message: string;
    details: string[];
  }) {
    // The details name the field and the problem; they say more than the generic message. A problem of the
    // whole request has the path "/", which means nothing to the person reading it.
    super(details.length ? details.map((d) => d.replace(/^\/: /, "")).join("; ") : message);
    this.name = "ApiError";
    this.status = status;
    this.type = type;
    this.details = details;
  }
}

/**
 * Fetches a dashboard API path. `json` is sent as the body (POST unless `method` says otherwise);
 * a non-2xx answer throws ApiError built from the contract's `{"error":{type,message,details}}`.
 */
export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  const hasJson = json !== undefined;
  const res = await fetch(path, {
    ...rest,
    method: rest.method ?? (hasJson ? "POST" : "GET"),
    headers: {
      accept: "application/json",
      ...(hasJson ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: hasJson ? JSON.stringify(json) : rest.body,
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const error = (body as TErrorBody | null)?.error;
    throw new ApiError({
      status: res.status,
      type: error?.type ?? (res.status >= 500 ? "INTERNAL_ERROR" : "REQUEST_FAILED"),
      message: error?.message ?? `Request failed (${res.status})`,
      details: error?.details ?? [],
    });
  }
  return body as T;
}

/** `?a=1&b=2` of the non-empty values ("" when none), for list filters. */
export function toQuery(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** One line for an error note. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
