"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, Dialog, ErrorNote, inputClass } from "@/components/ui";
import { useChangeUserStatus } from "@/components/users/hooks";

type TTarget = "blocked" | "active" | "inactive";
const LABELS: Record<TTarget, string> = {
  blocked: "Block user",
  active: "Unblock / activate",
  inactive: "Set inactive",
};

/**
 * Block, unblock or change status with a comment: the same domain function as PUT /v1/users/{id}/block etc.
 * A block needs its reason and, by default, confirms the user's open alerts with it.
 */
export function StatusActions({ userId, status }: { userId: string; status: string }) {
  const router = useRouter();
  const [target, setTarget] = useState<TTarget | null>(null);
  const [comment, setComment] = useState("");
  const [closeAlerts, setCloseAlerts] = useState(true);
  const change = useChangeUserStatus(userId);
  const choices = (["blocked", "active", "inactive"] as const).filter((s) => s !== status);
  const blocking = target === "blocked";
  const close = () => {
    setTarget(null);
    setComment("");
    setCloseAlerts(true);
    change.reset();
  };
  return (
    <>
      <div className="flex gap-2">
        {choices.map((s) => (
          <Button key={s} variant={s === "blocked" ? "danger" : "secondary"} onClick={() => setTarget(s)}>
            {s === "active" && status === "blocked" ? "Unblock user" : LABELS[s]}
          </Button>
        ))}
      </div>
      <Dialog
        open={target !== null}
        onClose={close}
        title={target ? LABELS[target] : ""}
        testId="status-dialog"
      >
        {target && (
          <form
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              change.mutate(
                { status: target, comment, closeAlerts: blocking && closeAlerts },
                {
                  onSuccess: () => {
                    close();
                    router.refresh();
                  },
                },
              );
            }}
          >
            <label className="block text-sm font-medium text-slate-800">
              {blocking ? "Why block this user? (required)" : "Comment"}
              <textarea
                data-autofocus
                required={blocking}
                className={`${inputClass} mt-1 w-full`}
                rows={3}
                value={comment}
                onChange={(e) => setComment(e.target.value)}
              />
            </label>
            {blocking && (
              <label className="flex items-start gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  checked={closeAlerts}
                  onChange={(e) => setCloseAlerts(e.target.checked)}
                />
                <span>Also confirm the user&apos;s open alerts with this reason</span>
              </label>
            )}
            {change.error && <ErrorNote>{change.error.message}</ErrorNote>}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                variant={blocking ? "danger" : "primary"}
                disabled={change.isPending || (blocking && !comment.trim())}
              >
                {blocking ? "Confirm block" : "Confirm"}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
