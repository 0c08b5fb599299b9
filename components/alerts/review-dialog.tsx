"use client";

import { useState } from "react";
import { useAlertExplanation, useReviewAlert } from "@/components/alerts/hooks";
import { RuleExplanation } from "@/components/transactions/rule-explanation";
import { ChoiceCards, LevelBadge, NoteDialog } from "@/components/ui";
import type { TAlertListItem } from "@/lib/alerts/list-alerts";

const CHOICES = [
  { value: "cleared", label: "Cleared", hint: "Not suspicious" },
  { value: "confirmed", label: "Confirmed", hint: "Suspicious, confirmed" },
  { value: "escalated", label: "Escalated", hint: "Needs a senior review" },
] as const;

/**
 * The verdict on one alert: the rule and the values that fired it first, then a verdict the reviewer
 * chooses (none preselected) and the note every verdict needs.
 */
export function ReviewDialog({
  alert,
  onClose,
  onDone,
}: {
  alert: TAlertListItem;
  onClose: () => void;
  /** After a saved verdict, with what happened in words. */
  onDone: (message: string) => void;
}) {
  const [status, setStatus] = useState<(typeof CHOICES)[number]["value"] | null>(null);
  const review = useReviewAlert();
  const explained = useAlertExplanation(alert.id);
  return (
    <NoteDialog
      open
      onClose={onClose}
      title="Review alert"
      size="lg"
      testId="review-dialog"
      intro={
        <>
          <p>
            <LevelBadge level={alert.level} /> <span className="font-medium">{alert.ruleId}</span> ·{" "}
            {alert.ruleName} on transaction <span className="font-mono">{alert.transactionId}</span>
          </p>
          <div className="mt-3" data-testid="review-explanation">
            {explained.data?.explanation ? (
              <ul>
                <RuleExplanation rule={explained.data.explanation} />
              </ul>
            ) : (
              <p>{explained.isPending ? "Loading the values that fired the rule…" : alert.reason}</p>
            )}
          </div>
        </>
      }
      noteLabel="Note"
      notePlaceholder="What you checked and why"
      requiredMessage="Write a note: what you checked and why."
      check={() => (status ? null : "Choose a verdict.")}
      submitLabel="Save review"
      pending={review.isPending}
      error={review.error}
      onSubmit={({ note }) => {
        if (!status) return;
        review.mutate(
          { alertId: alert.id, status, feedback: note },
          {
            onSuccess: () =>
              onDone(
                `Alert ${alert.ruleId} on ${alert.transactionId} ${CHOICES.find((c) => c.value === status)?.label.toLowerCase()}.`,
              ),
          },
        );
      }}
    >
      <ChoiceCards legend="Verdict" name="status" options={CHOICES} value={status} onChange={setStatus} />
    </NoteDialog>
  );
}
