"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage } from "@/components/api/client";
import { useChangeRuleStatus, usePublishRule } from "@/components/rules/hooks";
import { statusTone } from "@/components/rules/status-tone";
import {
  Badge,
  Button,
  ConfirmDialog,
  DateTime,
  Dialog,
  ErrorNote,
  EnumLabel,
  inputClass,
  PersonName,
} from "@/components/ui";
import { formatEnum, type TPerson } from "@/lib/format";

const LIVE_STATUSES = ["active", "dry-run", "muted"] as const;
// Dry run and muted are evaluated alike; what differs is what the hits are for, so say that.
const STATUS_HELP: Record<(typeof LIVE_STATUSES)[number], string> = {
  active: "decides answers, raises alerts and sends webhooks from the next screening on",
  "dry-run":
    "a trial: every screening evaluates it and records would-be hits for the hit chart and backtests; answers, alerts and webhooks are unchanged",
  muted:
    "silenced: it keeps being evaluated and its hits are recorded for later review, but it no longer affects answers, alerts or webhooks (for a noisy rule under investigation)",
};

export type TStatusPanelRule = {
  ruleId: string;
  status: string;
  liveVersion: number | null;
  screening: boolean;
  /** The newest draft saved after the live version, if any. */
  draft: { version: number; createdAt: number; createdBy: TPerson | null } | null;
};

function StatusChoice({
  value,
  onChange,
  allowed,
}: {
  value: string;
  onChange: (status: string) => void;
  allowed: readonly string[];
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">Live status</legend>
      {LIVE_STATUSES.map((s) => (
        <label key={s} className="flex items-start gap-2 text-sm text-slate-700">
          <input
            type="radio"
            name="live-status"
            value={s}
            checked={value === s}
            disabled={!allowed.includes(s)}
            onChange={() => onChange(s)}
            className="mt-1"
          />
          <span>
            <EnumLabel value={s} />
            <span className="text-slate-600">: {STATUS_HELP[s]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The rule's one status control: which version is live (and in which status), which draft is being
 * edited, and the three explicit actions: publish the draft, change the live status, switch the rule
 * off (confirmed). The server checks every action; the buttons mirror what the role may do.
 */
export function StatusControl({
  rule: fromServer,
  canPublish,
  canWrite,
}: {
  rule: TStatusPanelRule;
  canPublish: boolean;
  canWrite: boolean;
}) {
  const router = useRouter();
  // What was just published, shown at once: the server page refreshes behind it.
  const [published, setPublished] = useState<{ version: number; status: string } | null>(null);
  const rule: TStatusPanelRule = published
    ? {
        ...fromServer,
        liveVersion: published.version,
        status: published.status,
        screening: true,
        draft: null,
      }
    : fromServer;
  const publish = usePublishRule(rule.ruleId);
  const change = useChangeRuleStatus(rule.ruleId);
  const [dialog, setDialog] = useState<"publish" | "status" | "off" | null>(null);
  const [choice, setChoice] = useState<string>(rule.screening ? rule.status : "active");
  const [note, setNote] = useState("");
  const active = rule.status === "active";
  // publishing and switching on are an admin's; a reviewer may move a screening dry-run or muted
  // rule between those two or switch it off (rule-permissions.ts)
  const allowed = LIVE_STATUSES.filter((s) => canPublish || (s !== "active" && !active && rule.screening));
  const done = () => {
    setDialog(null);
    router.replace(`/dashboard/rules/${encodeURIComponent(rule.ruleId)}`);
    router.refresh();
  };
  const publishedDone = (version: number, status: string) => {
    setPublished({ version, status });
    setDialog(null);
    router.replace(`/dashboard/rules/${encodeURIComponent(rule.ruleId)}?published=${version}`);
    router.refresh();
  };
  const open = (which: "publish" | "status" | "off") => {
    setNote("");
    publish.reset();
    change.reset();
    setChoice(rule.screening ? rule.status : (allowed[0] ?? "active"));
    setDialog(which);
  };

  return (
    <div className="space-y-3" data-testid="rule-status-control">
      {published && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Published v{published.version} as {formatEnum(published.status)}.
        </p>
      )}
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Live version</dt>
          <dd className="mt-1 flex items-center gap-2" data-testid="live-version">
            {rule.screening && rule.liveVersion !== null ? (
              <>
                <span className="font-medium text-slate-900">v{rule.liveVersion}</span>
                <span data-testid="rule-status">
                  <Badge tone={statusTone(rule.status)}>
                    <EnumLabel value={rule.status} />
                  </Badge>
                </span>
              </>
            ) : (
              <>
                <span data-testid="rule-status">
                  <Badge tone={statusTone(rule.status)}>
                    <EnumLabel value={rule.status} />
                  </Badge>
                </span>
                <span className="text-slate-700">
                  {rule.liveVersion === null
                    ? "Never published: the rule does not screen."
                    : `Switched off: v${rule.liveVersion} does not screen.`}
                </span>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Being edited</dt>
          <dd className="mt-1 text-slate-700" data-testid="editing-version">
            {rule.draft ? (
              <>
                <span className="font-medium text-slate-900">Draft v{rule.draft.version}</span>, saved{" "}
                <DateTime value={rule.draft.createdAt} />
                {rule.draft.createdBy ? (
                  <>
                    {" "}
                    by <PersonName person={rule.draft.createdBy} />
                  </>
                ) : null}
                . It does not screen until published.
              </>
            ) : rule.liveVersion !== null ? (
              `No draft: saving the editor creates one from v${rule.liveVersion}.`
            ) : (
              "No draft."
            )}
          </dd>
        </div>
      </dl>

      {canWrite && (
        <div className="flex flex-wrap gap-2">
          {rule.draft && canPublish && (
            <Button onClick={() => open("publish")}>Publish draft v{rule.draft.version}…</Button>
          )}
          {rule.liveVersion !== null && allowed.length > 0 && (
            <Button variant="secondary" onClick={() => open("status")}>
              {rule.screening ? "Change live status…" : `Switch on v${rule.liveVersion}…`}
            </Button>
          )}
          {rule.screening && (canPublish || !active) && (
            <Button variant="danger" onClick={() => open("off")}>
              Switch off…
            </Button>
          )}
        </div>
      )}
      {!canPublish && canWrite && (
        <p className="text-xs text-slate-600" data-testid="publish-note">
          Publishing a draft, switching a rule on and changing an active rule are admin actions. Drafts and
          backtests are yours.
        </p>
      )}

      <Dialog
        open={dialog === "publish"}
        onClose={() => setDialog(null)}
        title={`Publish draft v${rule.draft?.version ?? ""}`}
        description={
          rule.screening && rule.liveVersion !== null
            ? `v${rule.draft?.version ?? ""} replaces v${rule.liveVersion} for every screening from now on, in one step.`
            : `v${rule.draft?.version ?? ""} starts screening from now on.`
        }
        testId="publish-dialog"
      >
        <div className="space-y-4">
          <StatusChoice value={choice} onChange={setChoice} allowed={allowed} />
          <label className="block text-sm font-medium text-slate-700">
            Change note (kept in the version history)
            <textarea
              className={`${inputClass} h-20`}
              value={note}
              maxLength={2000}
              required
              placeholder="What changed and why"
              data-testid="publish-note-input"
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          {publish.isError && <ErrorNote>{errorMessage(publish.error).replace(/^\/note: /, "")}</ErrorNote>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button
              data-autofocus
              disabled={publish.isPending || !rule.draft || !note.trim()}
              onClick={() => {
                const version = rule.draft?.version;
                if (version === undefined) return;
                publish.mutate(
                  { version, status: choice, note },
                  { onSuccess: () => publishedDone(version, choice) },
                );
              }}
            >
              {publish.isPending ? "Publishing…" : `Publish as ${formatEnum(choice)}`}
            </Button>
          </div>
        </div>
      </Dialog>

      <Dialog
        open={dialog === "status"}
        onClose={() => setDialog(null)}
        title={
          rule.screening ? `Change the status of v${rule.liveVersion}` : `Switch on v${rule.liveVersion}`
        }
        description="The version stays the same; only how its hits are used changes."
        testId="status-dialog"
      >
        <div className="space-y-4">
          <StatusChoice value={choice} onChange={setChoice} allowed={allowed} />
          {change.isError && <ErrorNote>{errorMessage(change.error)}</ErrorNote>}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button
              data-autofocus
              disabled={change.isPending || (rule.screening && choice === rule.status)}
              onClick={() => change.mutate(choice, { onSuccess: done })}
            >
              Apply
            </Button>
          </div>
        </div>
      </Dialog>

      <ConfirmDialog
        open={dialog === "off"}
        title={`Switch off ${rule.ruleId}?`}
        description={`Screenings stop evaluating it at once: no hits, alerts or dry-run records until it is switched on again. v${rule.liveVersion ?? ""} stays the version to switch back on.`}
        confirmLabel="Switch off"
        danger
        pending={change.isPending}
        onConfirm={() => change.mutate("inactive", { onSuccess: done })}
        onClose={() => setDialog(null)}
      />
      {dialog === null && (publish.isError || change.isError) && (
        <ErrorNote>{errorMessage(publish.error ?? change.error)}</ErrorNote>
      )}
    </div>
  );
}
