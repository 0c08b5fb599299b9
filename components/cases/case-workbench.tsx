"use client";

import Link from "next/link";
import { useState } from "react";
import { AlertStatusBadge } from "@/components/alerts/status-badge";
import { useCaseAction, type TCaseAction } from "@/components/cases/hooks";
import { RuleExplanation } from "@/components/transactions/rule-explanation";
import {
  Badge,
  Button,
  ChoiceCards,
  DateTime,
  DoneNote,
  ErrorNote,
  inputClass,
  LevelBadge,
  Money,
  NoteDialog,
  type TNoteDialogValues,
  PersonName,
} from "@/components/ui";
import { statusChangeEffect } from "@/components/users/status-actions";
import type { TCaseDetail } from "@/lib/cases/get-case-detail";
import { formatCount, formatEnum, formatPerson } from "@/lib/format";

const UNSETTLED = new Set(["open", "escalated"]);
const OUTCOMES = [
  { value: "false_positive", label: "False positive" },
  { value: "confirmed_fraud", label: "Confirmed fraud" },
  { value: "other", label: "Other" },
] as const;
type TOutcome = (typeof OUTCOMES)[number]["value"];

type TDialog =
  | { kind: "verdict"; status: "cleared" | "confirmed"; alertIds?: string[] }
  | { kind: "close" }
  | { kind: "escalate" }
  | { kind: "block" }
  | null;

const TITLES = {
  close: "Close the case",
  escalate: "Escalate to a reporting officer",
  block: "Block the user",
};
const SUBMIT = { verdict: "Save verdict", close: "Close case", escalate: "Escalate", block: "Block user" };
const DONE = {
  close: "Case closed.",
  escalate: "Escalated: a report draft is waiting for the reporting officers.",
  block: "User blocked.",
};

/** The case's alerts by transaction with their explanations, and every action on an open case. */
export function CaseWorkbench({ detail, canWork }: { detail: TCaseDetail; canWork: boolean }) {
  const c = detail.case;
  const workable = canWork && c.status !== "closed";
  const act = useCaseAction(c.id);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<TDialog>(null);
  const [outcome, setOutcome] = useState<TOutcome | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [comment, setComment] = useState("");
  const byEmail = new Map(Object.values(detail.people).map((p) => [p.email, p]));
  const unsettled = detail.transactions.flatMap((t) => t.alerts.filter((a) => UNSETTLED.has(a.status)));

  function openDialog(next: NonNullable<TDialog>) {
    setDone(null);
    act.reset();
    setDialog(next);
  }

  function closeDialog() {
    setDialog(null);
    setOutcome(null);
    act.reset();
  }

  function submit(open: NonNullable<TDialog>, { note, option }: TNoteDialogValues) {
    const payload: TCaseAction =
      open.kind === "verdict"
        ? { action: "alerts", status: open.status, alertIds: open.alertIds, note }
        : open.kind === "close"
          ? { action: "close", outcome: outcome ?? "", note }
          : open.kind === "escalate"
            ? { action: "escalate", note }
            : { action: "block-user", note, closeAlerts: option };
    act.mutate(payload, {
      onSuccess: (result) => {
        setSelected(new Set());
        setDone(
          open.kind === "verdict"
            ? `${formatCount(open.alertIds?.length ?? unsettled.length, "alert")} ${open.status}.`
            : open.kind === "block" && typeof result.alertsClosed === "number" && result.alertsClosed > 0
              ? `${DONE.block} ${formatCount(result.alertsClosed, "open alert")} confirmed with your note.`
              : DONE[open.kind],
        );
        closeDialog();
      },
    });
  }

  const dialogTitle = !dialog
    ? ""
    : dialog.kind === "verdict"
      ? `${dialog.status === "cleared" ? "Clear" : "Confirm"} ${
          dialog.alertIds ? `${dialog.alertIds.length} selected` : `all ${unsettled.length} open`
        } ${(dialog.alertIds?.length ?? unsettled.length) === 1 ? "alert" : "alerts"}`
      : TITLES[dialog.kind];

  return (
    <div className="space-y-4">
      {workable && (
        <div
          className="flex flex-wrap items-end gap-2 rounded-lg border border-slate-200 bg-white p-3"
          data-testid="case-actions"
        >
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
            Assignee
            <select
              className={inputClass}
              value={c.assignee?.id ?? ""}
              disabled={act.isPending}
              onChange={(e) => act.mutate({ action: "assign", assigneeId: e.target.value || null })}
            >
              <option value="">Unassigned</option>
              {detail.reviewers.map((r) => (
                <option key={r.id} value={r.id}>
                  {formatPerson(r)}
                </option>
              ))}
            </select>
          </label>
          <div className="ml-auto flex flex-wrap gap-2">
            {detail.subject.type === "user" && detail.subject.status !== "blocked" && (
              <Button variant="danger" onClick={() => openDialog({ kind: "block" })}>
                Block user…
              </Button>
            )}
            {c.status !== "escalated" && (
              <Button variant="secondary" onClick={() => openDialog({ kind: "escalate" })}>
                Escalate…
              </Button>
            )}
            <Button onClick={() => openDialog({ kind: "close" })}>Close case…</Button>
          </div>
        </div>
      )}
      {act.error && !dialog && <ErrorNote>{act.error.message}</ErrorNote>}
      {done && <DoneNote>{done}</DoneNote>}

      <section
        aria-labelledby="case-alerts"
        className="rounded-lg border border-slate-200 bg-white shadow-sm"
      >
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
          <h2 id="case-alerts" className="text-sm font-semibold text-slate-800">
            Alerts by transaction ({c.alertCount})
          </h2>
          {workable && unsettled.length > 0 && (
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                disabled={selected.size === 0}
                onClick={() => openDialog({ kind: "verdict", status: "cleared", alertIds: [...selected] })}
              >
                Clear selected
              </Button>
              <Button
                variant="secondary"
                disabled={selected.size === 0}
                onClick={() => openDialog({ kind: "verdict", status: "confirmed", alertIds: [...selected] })}
              >
                Confirm selected
              </Button>
              <Button variant="secondary" onClick={() => openDialog({ kind: "verdict", status: "cleared" })}>
                Clear all open
              </Button>
              <Button
                variant="secondary"
                onClick={() => openDialog({ kind: "verdict", status: "confirmed" })}
              >
                Confirm all open
              </Button>
            </div>
          )}
        </div>
        <div className="divide-y divide-slate-100">
          {detail.transactions.map((t) => (
            <article key={t.id} className="p-4" data-testid="case-transaction" data-transaction-id={t.id}>
              <header className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                <Link
                  className="font-mono font-medium text-brand-700 hover:underline"
                  href={`/dashboard/transactions/${encodeURIComponent(t.id)}`}
                >
                  {t.id}
                </Link>
                <Money amount={t.amount} currency={t.currencyCode} className="font-medium" />
                <span className="text-slate-700">{formatEnum(t.status)}</span>
                {t.direction && <span className="text-slate-700">{formatEnum(t.direction)}</span>}
                <DateTime value={t.occurredAt} className="text-slate-700" />
                {t.isFraud && <Badge tone="red">Confirmed fraud</Badge>}
                {t.isChargeback && <Badge tone="amber">Chargeback</Badge>}
              </header>
              <ul className="mt-3 space-y-3">
                {t.alerts.map((a) => (
                  <li
                    key={a.id}
                    className="rounded-md border border-slate-200 p-3"
                    data-testid="case-alert"
                    data-alert-id={a.id}
                  >
                    <div className="flex flex-wrap items-center gap-2 text-sm">
                      {workable && UNSETTLED.has(a.status) && (
                        <input
                          type="checkbox"
                          aria-label={`Select alert ${a.ruleId} on ${t.id}`}
                          checked={selected.has(a.id)}
                          onChange={() => {
                            const copy = new Set(selected);
                            if (copy.has(a.id)) copy.delete(a.id);
                            else copy.add(a.id);
                            setSelected(copy);
                          }}
                        />
                      )}
                      <LevelBadge level={a.level} />
                      <span className="font-medium">{a.ruleId}</span>
                      <span className="text-slate-700">{a.ruleName}</span>
                      <AlertStatusBadge status={a.status} />
                      {a.reviewedBy && (
                        <span className="text-xs text-slate-700">
                          by <PersonName person={byEmail.get(a.reviewedBy) ?? { email: a.reviewedBy }} />
                          {a.reviewedAt && (
                            <>
                              {" "}
                              on <DateTime value={a.reviewedAt} />
                            </>
                          )}
                          {a.feedback && <>: “{a.feedback}”</>}
                        </span>
                      )}
                    </div>
                    {a.explanation ? (
                      <ul className="mt-2 min-w-0 overflow-hidden [overflow-wrap:anywhere]">
                        <RuleExplanation rule={a.explanation} />
                      </ul>
                    ) : (
                      <p className="mt-1 text-sm text-slate-700">{a.reason}</p>
                    )}
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </section>

      {workable && (
        <form
          className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
          aria-label="Comment on the case"
          onSubmit={(e) => {
            e.preventDefault();
            act.mutate({ action: "comment", comment }, { onSuccess: () => setComment("") });
          }}
        >
          <label className="block text-sm font-medium text-slate-800">
            Comment
            <textarea
              className={`${inputClass} mt-1 w-full`}
              rows={2}
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              placeholder="What you found, who you contacted"
            />
          </label>
          <div className="flex justify-end">
            <Button type="submit" variant="secondary" disabled={act.isPending || !comment.trim()}>
              Add comment
            </Button>
          </div>
        </form>
      )}

      <NoteDialog
        open={dialog !== null}
        onClose={closeDialog}
        title={dialogTitle}
        testId="case-dialog"
        intro={
          dialog?.kind === "escalate"
            ? "A report draft is created for the reporting officers with this case's user, its transactions and the indicator codes mapped from the rules that fired. Filing it closes the case as reported."
            : dialog?.kind === "block" && detail.subject.status
              ? statusChangeEffect("blocked", detail.subject.status)
              : undefined
        }
        noteLabel="Note"
        requiredMessage="Write a note: it is kept in the case history with your name."
        optionLabel={
          dialog?.kind === "block" ? <>Also confirm the user&apos;s open alerts with this note</> : undefined
        }
        check={() => (dialog?.kind === "close" && !outcome ? "Choose an outcome for the case." : null)}
        submitLabel={dialog ? SUBMIT[dialog.kind] : ""}
        danger={dialog?.kind === "block"}
        pending={act.isPending}
        error={act.error}
        onSubmit={(values) => dialog && submit(dialog, values)}
      >
        {dialog?.kind === "close" && (
          <ChoiceCards
            legend="Outcome (required)"
            name="outcome"
            options={OUTCOMES}
            value={outcome}
            onChange={setOutcome}
          >
            {unsettled.length > 0 && (
              <p className="mt-2 text-xs text-slate-700">
                The {unsettled.length} open {unsettled.length === 1 ? "alert is" : "alerts are"}{" "}
                {outcome === "confirmed_fraud" ? "confirmed" : "cleared"} with the note.
              </p>
            )}
          </ChoiceCards>
        )}
      </NoteDialog>
    </div>
  );
}
