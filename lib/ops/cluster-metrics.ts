import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import client from "prom-client";

// /metrics under `npm start` with several server processes: the process that got the request asks
// the cluster primary, which collects every worker's registry over the cluster's IPC (prom-client's
// AggregatorRegistry: counters and histograms summed, per-process gauges too) and answers the text.

const REQUEST = "rss:metrics-req";
const ANSWER = "rss:metrics-res";
const TIMEOUT_MS = 5_000;

type TMessage = { type?: string; id?: string; text?: string; error?: string };

const globalForCluster = globalThis as unknown as {
  rssAggregator?: client.AggregatorRegistry<client.PrometheusContentType>;
  rssMetricsWaiting?: Map<string, (message: TMessage) => void>;
};

/** Workers answer the primary's collection requests (prom-client listens once it is constructed). */
function aggregator(): client.AggregatorRegistry<client.PrometheusContentType> {
  return (globalForCluster.rssAggregator ??= new client.AggregatorRegistry());
}

/** In a worker: the whole cluster's metrics from the primary; null when this process is not a worker. */
export async function clusterMetricsText(): Promise<string | null> {
  if (!cluster.isWorker || !process.send) return null;
  aggregator();
  let waiting = globalForCluster.rssMetricsWaiting;
  if (!waiting) {
    const answers = (waiting = globalForCluster.rssMetricsWaiting = new Map());
    process.on("message", (message: TMessage) => {
      if (message?.type === ANSWER && message.id) answers.get(message.id)?.(message);
    });
  }
  const pending = waiting;
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error("the cluster primary did not answer for metrics"));
    }, TIMEOUT_MS);
    pending.set(id, (message) => {
      clearTimeout(timer);
      pending.delete(id);
      if (message.error) reject(new Error(message.error));
      else resolve(message.text ?? "");
    });
    process.send!({ type: REQUEST, id });
  });
}

/** Sets up the worker side of the aggregation (call once per worker at start). */
export function serveClusterMetricsInWorker(): void {
  if (cluster.isWorker) aggregator();
}

/** In the cluster primary: answers a worker's request for the cluster's metrics. */
export function answerMetricsMessage(message: unknown, reply: (answer: TMessage) => void): boolean {
  const m = message as TMessage | null;
  if (m?.type !== REQUEST || !m.id) return false;
  const id = m.id;
  aggregator()
    .clusterMetrics()
    .then((text) => reply({ type: ANSWER, id, text }))
    .catch((err: unknown) => reply({ type: ANSWER, id, error: (err as Error).message }));
  return true;
}
