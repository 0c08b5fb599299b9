"use client";

import { useState } from "react";
import { useAlertExplanation, useReviewAlert } from "@/components/alerts/hooks";
import { RuleExplanation } from "@/components/transactions/rule-explanation";
import { Button, Dialog, ErrorNote, inputClass, LevelBadge } from "@/components/ui";
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
export function ReviewDialog({ alert, onClose }: { alert: TAlertListItem; onClose: () => void }) {
  const [status, setStatus] = useState<string | null>(null);
  const [feedback, setFeedback] = useState("");
  const review = useReviewAlert();
  const explained = useAlertExplanation(alert.id);
  return (
    <Dialog open onClose={onClose} title="Review alert" size="lg" testId="review-dialog">
      <p className="text-sm text-slate-700">
        <LevelBadge level={alert.level} /> <span className="font-medium">{alert.ruleId}</span> ·{" "}
        {alert.ruleName} on transaction <span className="font-mono">{alert.transactionId}</span>
      </p>
      <div className="mt-3" data-testid="review-explanation">
        {explained.data?.explanation ? (
          <ul>
            <RuleExplanation rule={explained.data.explanation} />
          </ul>
        ) : (
          <p className="text-sm text-slate-700">
            {explained.isPending ? "Loading the values that fired the rule…" : alert.reason}
          </p>
        )}
      </div>
      <form
        className="mt-4 space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (status) review.mutate({ alertId: alert.id, status, feedback }, { onSuccess: onClose });
        }}
      >
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Verdict</legend>
          <div className="mt-2 grid grid-cols-3 gap-2">
            {CHOICES.map((c) => (
              <label
                key={c.value}
                className={`cursor-pointer rounded-md border px-3 py-2 text-sm focus-within:ring-2 focus-within:ring-brand-500 ${
                  status === c.value ? "border-brand-600 bg-brand-50" : "border-slate-400"
                }`}
              >
                <input
                  type="radio"
                  name="status"
                  value={c.value}
                  checked={status === c.value}
                  onChange={() => setStatus(c.value)}
                  className="sr-only"
                />
                <span className="block font-medium">{c.label}</span>
                <span className="block text-xs text-slate-700">{c.hint}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <label className="block text-sm font-medium text-slate-800">
          Note (required)
          <textarea
            required
            className={`${inputClass} mt-1 w-full`}
            rows={3}
            value={feedback}
            onChange={(e) => setFeedback(e.target.value)}
            placeholder="What you checked and why"
          />
        </label>
        {review.error && <ErrorNote>{review.error.message}</ErrorNote>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={review.isPending || !status || !feedback.trim()}>
            {review.isPending ? "Saving…" : "Save review"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
