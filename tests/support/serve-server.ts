import http from "node:http";
import type { AddressInfo } from "node:net";

type TRouteHandler = (
  req: Request,
  ctx: { params: Promise<Record<string, string>> },
) => Promise<Response> | Response;

/**
 * Hosts Next.js route handlers on a node:http server, the way `next start` calls them, so the job
 * driver can reach the serve endpoint over HTTP in tests and in the crash-test worker.
 */
export async function startRouteServer(
  handlers: Partial<Record<"GET" | "POST" | "PUT", TRouteHandler>>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        try {
          const handler = handlers[(req.method ?? "GET") as "GET" | "POST" | "PUT"];
          if (!handler) {
            res.writeHead(405).end();
            return;
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
          const body = chunks.length ? Buffer.concat(chunks) : undefined;
          const request = new Request(`http://${req.headers.host}${req.url}`, {
            method: req.method,
            headers,
            body,
          });
          const response = await handler(request, { params: Promise.resolve({}) });
          res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
          res.end(Buffer.from(await response.arrayBuffer()));
        } catch (err) {
          res.writeHead(500).end(String(err));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inngest`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
