import { getAtPath, type TContent } from "@/lib/reports/content";
import { buildEditor, describePath, fieldFor, type TEditorGroup } from "@/lib/reports/editor";
import { checkReport, reportProblems, type TActiveSchema } from "@/lib/reports/goaml-xml";

/** One thing to fix; `paths` are every content path it stands for (a grouped field missing in several places). */
export type TVerdictItem = { path: string; paths: string[]; text: string; fieldId?: string };

export type TReportVerdict = {
  schemaName: string;
  valid: boolean;
  /** What is missing or invalid, in words, each linked to the editor field that fixes it. */
  items: TVerdictItem[];
  /** libxml2's own messages, when no field explains the failure. */
  errors: string[];
  groups: TEditorGroup[];
  xml: string;
};

/**
 * The report's one verdict against the active schema, with the editor model (of the stored content) it links into.
 * `checked` is what will be filed when it differs from what is stored (the filing officer as reporting person).
 */
export async function reportVerdict(
  content: TContent,
  active: TActiveSchema,
  checked: TContent = content,
): Promise<TReportVerdict> {
  const missing = reportProblems(content, active.schema)
    .filter((p) => p.kind === "missing")
    .map((p) => p.path);
  const groups = buildEditor(content, active.schema, missing);
  const check = await checkReport(checked, active);
  const items = check.problems.map((p): TVerdictItem => {
    const where = describePath(groups, p.path);
    const indicator = /^report_indicators\[\d+\]$/.test(p.path) ? getAtPath(content, p.path) : undefined;
    const text =
      p.path === "report_indicators"
        ? "Indicators: choose at least one indicator code"
        : indicator !== undefined
          ? `Indicators: ${String(indicator)} is not an indicator code of ${active.name}`
          : p.kind === "missing"
            ? `${where} is missing`
            : `${where}: ${p.message?.replace(/^.*? must be/, "must be") ?? "invalid"}`;
    return { path: p.path, paths: [p.path], text, fieldId: fieldFor(groups, p.path)?.field.id };
  });
  // A grouped field missing in several places is one thing to fix.
  const seen = new Map<string, TVerdictItem>();
  for (const item of items) {
    const key = `${item.fieldId ?? item.path}|${item.text}`;
    const hit = seen.get(key);
    if (hit) hit.paths.push(item.path);
    else seen.set(key, item);
  }
  return {
    schemaName: check.schemaName,
    valid: check.valid,
    items: [...seen.values()].map((item) =>
      item.paths.length > 1 ? { ...item, text: `${item.text} (in ${item.paths.length} places)` } : item,
    ),
    errors: check.errors,
    groups,
    xml: check.xml,
  };
}

/** One sentence listing why a report cannot go on, for refusals. */
export function verdictReasons(verdict: TReportVerdict): string {
  const reasons = verdict.items.length ? verdict.items.map((i) => i.text) : verdict.errors;
  return `The goAML XML does not validate against ${verdict.schemaName}: ${reasons.join("; ")}`;
}
