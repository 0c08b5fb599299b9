"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { rulesApi } from "@/components/rules/query";
import { Badge, Button, ErrorNote, inputClass } from "@/components/ui";
import { errorText } from "@/lib/admin/fetch-json";
import { RULE_STATUSES } from "@/lib/rules/schemas";
import { statusTone } from "@/components/rules/status-tone";

/** Status changes; the server refuses publishing for non-admins, the buttons only mirror it. */
export function StatusControl({
  ruleId,
  status,
  canPublish,
  canWrite,
}: {
  ruleId: string;
  status: string;
  canPublish: boolean;
  canWrite: boolean;
}) {
  const router = useRouter();
  const [next, setNext] = useState(status === "active" ? "inactive" : "dry-run");
  const change = useMutation({
    mutationFn: (to: string) => rulesApi.setStatus(ruleId, to),
    // drop a stale "saved as version N" note from the URL
    onSuccess: () => {
      router.replace(`/dashboard/rules/${encodeURIComponent(ruleId)}`);
      router.refresh();
    },
  });
  const mayChange = canWrite && (canPublish || status !== "active");
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-600">Status</span>
        <span data-testid="rule-status">
          <Badge tone={statusTone(status)}>{status}</Badge>
        </span>
        {mayChange && (
          <>
            <select
              aria-label="New status"
              className={inputClass.replace("w-full", "w-40")}
              value={next}
              onChange={(e) => setNext(e.target.value)}
            >
              {RULE_STATUSES.filter((s) => s !== status && (canPublish || s !== "active")).map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
            <Button variant="secondary" disabled={change.isPending} onClick={() => change.mutate(next)}>
              Set status
            </Button>
          </>
        )}
        {canPublish && status !== "active" && (
          <Button disabled={change.isPending} onClick={() => change.mutate("active")}>
            Publish
          </Button>
        )}
      </div>
      {!canPublish && (
        <p className="text-xs text-slate-500">Publishing a rule (status active) is an admin action.</p>
      )}
      {change.isError && <ErrorNote>{errorText(change.error)}</ErrorNote>}
    </div>
  );
}
