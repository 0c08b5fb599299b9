import { buildOpenApiDocument } from "@/lib/openapi/document";

export const metadata = { title: "API reference · Risk Screening" };

type TOperation = {
  summary: string;
  description?: string;
  tags: string[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: { "application/json": { schema: unknown } } };
  responses: Record<string, { description: string; content?: { "application/json": { schema: unknown } } }>;
};

const METHOD_COLORS: Record<string, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  put: "bg-amber-100 text-amber-800",
  delete: "bg-red-100 text-red-800",
  patch: "bg-violet-100 text-violet-800",
};

export default function DocsPage() {
  const doc = buildOpenApiDocument() as {
    info: { title: string; description: string };
    paths: Record<string, Record<string, TOperation>>;
  };
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  );
  const tags = [...new Set(operations.map((o) => o.op.tags[0] ?? "Other"))];
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <h1 className="text-3xl font-semibold">{doc.info.title}</h1>
      <p className="mt-2 max-w-3xl text-slate-600">{inlineCode(doc.info.description)}</p>
      <p className="mt-2 text-sm">
        Machine-readable:{" "}
        <a className="text-brand-600 underline" href="/v1/openapi.json">
          /v1/openapi.json
        </a>{" "}
        (OpenAPI 3.1)
      </p>
      {tags.map((tag) => (
        <section key={tag} className="mt-10">
          <h2 className="text-xl font-semibold">{tag}</h2>
          {operations
            .filter((o) => (o.op.tags[0] ?? "Other") === tag)
            .map(({ path, method, op }) => (
              <details key={method + path} className="mt-3 rounded-lg border border-slate-200 bg-white">
                <summary className="flex cursor-pointer items-center gap-3 px-4 py-3">
                  <span
                    className={`rounded px-2 py-0.5 font-mono text-xs uppercase ${METHOD_COLORS[method] ?? ""}`}
                  >
                    {method}
                  </span>
                  <code className="text-sm">{path}</code>
                  <span className="text-sm text-slate-500">{inlineCode(op.summary)}</span>
                </summary>
                <div className="space-y-3 border-t border-slate-100 px-4 py-3 text-sm">
                  {op.description && <p className="text-slate-700">{inlineCode(op.description)}</p>}
                  {op.requestBody && (
                    <div>
                      <div className="font-medium">Request body</div>
                      <pre className="mt-1 max-h-96 overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
                        {JSON.stringify(op.requestBody.content["application/json"].schema, null, 2)}
                      </pre>
                    </div>
                  )}
                  <div>
                    <div className="font-medium">Responses</div>
                    <ul className="mt-1 space-y-1">
                      {Object.entries(op.responses).map(([code, r]) => (
                        <li key={code}>
                          <code className="mr-2">{code}</code>
                          {inlineCode(r.description)}
                        </li>
                      ))}
                    </ul>
                  </div>
                </div>
              </details>
            ))}
        </section>
      ))}
    </main>
  );
}

/** The descriptions' markdown code spans (`like this`) as code; the rest stays text. */
function inlineCode(text: string) {
  return text.split(/`([^`]+)`/).map((part, i) =>
    i % 2 === 1 ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.9em] text-slate-800">
        {part}
      </code>
    ) : (
      part
    ),
  );
}
