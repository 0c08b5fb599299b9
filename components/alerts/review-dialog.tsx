"use client";

import { useState } from "react";
import { Button, ErrorNote, inputClass, LevelBadge } from "@/components/ui";
import type { TAlertListItem } from "@/lib/alerts/list-alerts";
import { useReviewAlert } from "@/components/alerts/hooks";

const CHOICES = [
  { value: "cleared", label: "Cleared", hint: "Not suspicious" },
  { value: "confirmed", label: "Confirmed", hint: "Suspicious, confirmed" },
  { value: "escalated", label: "Escalated", hint: "Needs a senior review" },
] as const;

export function ReviewDialog({ alert, onClose }: { alert: TAlertListItem; onClose: () => void }) {
  const [status, setStatus] = useState<string>("cleared");
  const [feedback, setFeedback] = useState("");
  const review = useReviewAlert();
  return (
    <div
      className="fixed inset-0 z-20 flex items-center justify-center bg-slate-900/40 p-4"
      onClick={onClose}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="review-title"
        className="w-full max-w-lg rounded-lg bg-white p-5 shadow-xl"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === "Escape" && onClose()}
      >
        <h2 id="review-title" className="text-lg font-semibold">
          Review alert
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <LevelBadge level={alert.level} /> <span className="font-medium">{alert.ruleId}</span> ·{" "}
          {alert.ruleName} on transaction <span className="font-mono">{alert.transactionId}</span>
        </p>
        <p className="mt-1 text-sm text-slate-500">{alert.reason}</p>
        <form
          className="mt-4 space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            review.mutate({ alertId: alert.id, status, feedback }, { onSuccess: onClose });
          }}
        >
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Verdict</legend>
            <div className="mt-2 grid grid-cols-3 gap-2">
              {CHOICES.map((c) => (
                <label
                  key={c.value}
                  className={`cursor-pointer rounded-md border px-3 py-2 text-sm ${
                    status === c.value ? "border-brand-500 bg-brand-50" : "border-slate-300"
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
                  <span className="block text-xs text-slate-500">{c.hint}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <label className="block text-sm font-medium text-slate-700">
            Feedback
            <textarea
              className={`${inputClass} mt-1`}
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
            <Button type="submit" disabled={review.isPending}>
              {review.isPending ? "Saving…" : "Save review"}
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}
