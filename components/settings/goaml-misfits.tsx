"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "@/components/api/client";
import { Button, ClientText, ErrorNote, inputClass, linkClass } from "@/components/ui";
import type { TCodeMapping, TSchemaMisfits, TStaleCode } from "@/lib/admin/goaml-fit";

// Option values: "" leaves the code, "drop" drops it, "code:<value>" maps it (any code text stays unambiguous).
const DROP = "drop";

/** goAML lookup lists in words. */
const LIST_LABELS: Record<string, string> = {
  contact_type: "Contact type",
  communication_type: "Phone communication type",
  conduction_type: "Transmission mode",
  funds_type: "Funds type",
  report_indicator_type: "Indicator",
  country_type: "Country",
  currency_type: "Currency",
  report_type: "Report code",
  submission_type: "Submission code",
};

export function listLabel(list: string): string {
  const words = list.replace(/_type$/, "").replace(/_/g, " ");
  return LIST_LABELS[list] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

function UsedBy({ code }: { code: TStaleCode }) {
  const profile = code.uses.flatMap((u) => (u.kind === "profile" ? [u.label] : []));
  const rules = [...new Set(code.uses.flatMap((u) => (u.kind === "mapping" ? [u.ruleId] : [])))];
  const drafts = [...new Set(code.uses.flatMap((u) => (u.kind === "draft" ? [u.reportId] : [])))];
  return (
    <ul className="space-y-0.5 text-xs text-slate-700">
      {profile.length > 0 && <li>Profile: {profile.join("; ")}</li>}
      {rules.length > 0 && (
        <li className="break-words">
          Rule → indicator:{" "}
          {rules.map((r, i) => (
            <span key={r}>
              {i > 0 && ", "}
              <ClientText value={r} />
            </span>
          ))}
        </li>
      )}
      {drafts.length > 0 && (
        <li>
          {drafts.length} open draft{drafts.length === 1 ? "" : "s"}
        </li>
      )}
    </ul>
  );
}

/**
 * Everything that no longer fits the active goAML schema, in one place: each stale code with where it is used,
 * and a choice of the code it becomes (or dropping it); one click applies every choice in one audited step.
 */
export function GoamlMisfits({ misfits }: { misfits: TSchemaMisfits }) {
  const router = useRouter();
  const [choice, setChoice] = useState<Record<string, string>>({});
  const keyOf = (c: TStaleCode) => `${c.list}\u0000${c.code}`;
  const chosen: TCodeMapping[] = misfits.codes.flatMap((c) => {
    const to = choice[keyOf(c)];
    return to ? [{ list: c.list, from: c.code, to: to === DROP ? null : to.slice("code:".length) }] : [];
  });
  const apply = useMutation({
    mutationFn: () =>
      apiFetch<TSchemaMisfits>("/dashboard-api/settings/goaml-codes", {
        method: "POST",
        json: { mappings: chosen },
      }),
    onSuccess: () => {
      setChoice({});
      router.refresh();
    },
  });

  if (misfits.codes.length === 0)
    return (
      <div
        id="goaml-misfits"
        data-testid="goaml-misfits"
        data-count="0"
        className="mb-4 text-sm text-emerald-700"
      >
        Everything in this profile, the rule → indicator mapping and the open drafts fits {misfits.schemaName}
        .{apply.isSuccess && <span role="status"> Codes mapped.</span>}
      </div>
    );

  return (
    <section
      id="goaml-misfits"
      data-testid="goaml-misfits"
      data-count={misfits.codes.length}
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm"
      aria-labelledby="goaml-misfits-title"
    >
      <h3 id="goaml-misfits-title" className="font-semibold text-amber-900">
        {misfits.codes.length} code{misfits.codes.length === 1 ? "" : "s"} no longer fit{" "}
        {misfits.codes.length === 1 ? "s" : ""} {misfits.schemaName}
      </h3>
      <p className="mt-1 text-xs text-slate-700">
        Choose what each old code becomes, or drop it. Applying changes the profile, the rule → indicator
        mapping and every open draft at once, and is recorded in the audit log. Until then new drafts leave
        these codes out and list the field as missing; the rest of the profile saves as usual.
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="text-xs text-slate-600">
              <th className="py-1 pr-3 font-medium">List</th>
              <th className="py-1 pr-3 font-medium">Old code</th>
              <th className="py-1 pr-3 font-medium">Used by</th>
              <th className="py-1 font-medium">Becomes</th>
            </tr>
          </thead>
          <tbody>
            {misfits.codes.map((c) => (
              <tr key={keyOf(c)} className="border-t border-amber-200 align-top" data-testid="misfit-row">
                <td className="py-1.5 pr-3">{listLabel(c.list)}</td>
                <td className="max-w-40 break-all py-1.5 pr-3 font-mono">{c.code}</td>
                <td className="py-1.5 pr-3">
                  <UsedBy code={c} />
                </td>
                <td className="py-1.5">
                  <select
                    className={`${inputClass} min-w-40`}
                    aria-label={`${listLabel(c.list)} ${c.code} becomes`}
                    value={choice[keyOf(c)] ?? ""}
                    onChange={(e) => setChoice((m) => ({ ...m, [keyOf(c)]: e.target.value }))}
                    data-testid={`map-${c.list}-${c.code}`}
                  >
                    <option value="">— leave for now —</option>
                    {c.options.map((o) => (
                      <option key={o.value} value={`code:${o.value}`}>
                        {o.label && o.label !== o.value ? `${o.value} — ${o.label}` : o.value}
                      </option>
                    ))}
                    <option value={DROP}>Drop it</option>
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {misfits.drafts.length > 0 && (
        <div className="mt-2 text-xs text-slate-700">
          Open drafts holding these codes:
          <ul className="mt-1 space-y-0.5" data-testid="misfit-drafts">
            {misfits.drafts.map((d) => (
              <li key={d.reportId} className="break-words">
                <Link href={`/dashboard/reports/${encodeURIComponent(d.reportId)}`} className={linkClass}>
                  <ClientText value={d.title ?? d.reportId} />
                </Link>{" "}
                · {d.codes} code{d.codes === 1 ? "" : "s"}
              </li>
            ))}
          </ul>
        </div>
      )}
      {apply.isError && <ErrorNote>{apply.error.message}</ErrorNote>}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button
          type="button"
          disabled={chosen.length === 0 || apply.isPending}
          onClick={() => apply.mutate()}
          data-testid="apply-mappings"
        >
          {apply.isPending
            ? "Applying…"
            : `Apply ${chosen.length || ""} mapping${chosen.length === 1 ? "" : "s"}`}
        </Button>
        <span className="text-xs text-slate-600">Unsaved changes in the form below are discarded.</span>
      </div>
    </section>
  );
}
