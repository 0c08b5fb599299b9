import type { ReactNode } from "react";
import { Badge } from "@/components/ui";
import { formatEnum } from "@/lib/format";
import type { TReportStatus } from "@/lib/reports/schemas";

const STATUS_TONES: Record<TReportStatus, "slate" | "green" | "red" | "amber" | "blue"> = {
  draft: "slate",
  pending_review: "amber",
  submitted: "green",
  rejected: "red",
  resubmission_required: "red",
  amended: "blue",
  archived: "slate",
};

export function StatusBadge({ status }: { status: TReportStatus }) {
  return (
    <span data-testid="report-status" data-status={status}>
      <Badge tone={STATUS_TONES[status]}>{formatEnum(status)}</Badge>
    </span>
  );
}

type TNode = unknown;

function Leaf({ value, path }: { value: TNode; path: string }) {
  if (value === null)
    return (
      <span
        className="rounded bg-red-100 px-1.5 text-xs font-medium text-red-700"
        data-testid="content-missing"
        data-path={path}
      >
        missing
      </span>
    );
  return <span className="font-mono text-slate-800">{String(value)}</span>;
}

/** The goAML content as a tree, every missing (null) value highlighted. */
export function ContentTree({ node, path = "" }: { node: TNode; path?: string }): ReactNode {
  if (node === null || typeof node !== "object") return <Leaf value={node} path={path} />;
  const entries: [string, TNode][] = Array.isArray(node)
    ? node.map((v, i) => [`[${i}]`, v])
    : Object.entries(node as Record<string, TNode>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return <span className="text-xs text-slate-600">(empty)</span>;
  return (
    <ul className="space-y-0.5 border-l border-slate-200 pl-3">
      {entries.map(([key, value]) => {
        const childPath = key.startsWith("[") ? `${path}${key}` : path ? `${path}.${key}` : key;
        const nested = value !== null && typeof value === "object";
        return (
          <li key={key} className="text-sm">
            <span className="text-slate-600">{key}</span>
            {nested ? (
              <div className="mt-0.5">
                <ContentTree node={value} path={childPath} />
              </div>
            ) : (
              <>
                <span className="text-slate-600">: </span>
                <Leaf value={value} path={childPath} />
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
