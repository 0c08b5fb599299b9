import type { z } from "zod";
import type { TClientContext } from "@/lib/clients/client-context";
import { parseWith } from "@/lib/validation/parse";
import { createReport } from "@/lib/reports/create-report";
import { ZCreateReport, type ZBulkReportsResponse } from "@/lib/reports/schemas";

type TBulkResponse = z.infer<typeof ZBulkReportsResponse>;
type TItemError = TBulkResponse["failed"][number]["error"];

function itemId(item: unknown): string | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === "string" && id ? id : null;
}

/**
 * POST /v1/reports/bulk: each item is validated and created on its own, in order, so one bad item fails alone
 * with the error body a single POST /v1/report would have answered. The envelope (≤ 100 items) is checked
 * by the route before anything is created. `itemError` is the edge's error body of what an item threw.
 */
export async function bulkCreateReports({
  client,
  reports,
  itemError,
}: {
  client: TClientContext;
  reports: unknown[];
  itemError: (err: unknown) => TItemError;
}): Promise<TBulkResponse> {
  const created: TBulkResponse["created"] = [];
  const failed: TBulkResponse["failed"] = [];
  for (const [index, item] of reports.entries()) {
    try {
      const body = parseWith(ZCreateReport, item);
      const r = await createReport({ client, body });
      created.push({
        index,
        id: r.reportId,
        reportId: r.reportId,
        status: r.status,
        populated: r.populated,
        incomplete: r.incomplete,
      });
    } catch (err) {
      failed.push({ index, id: itemId(item), error: itemError(err) });
    }
  }
  return {
    created,
    failed,
    summary: { received: reports.length, created: created.length, failed: failed.length },
    timestamp: Date.now(),
  };
}
