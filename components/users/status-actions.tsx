"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ErrorNote, inputClass } from "@/components/ui";
import { useChangeUserStatus } from "@/components/users/hooks";

type TTarget = "blocked" | "active" | "inactive";
const LABELS: Record<TTarget, string> = {
  blocked: "Block user",
  active: "Unblock / activate",
  inactive: "Set inactive",
};

/** Block, unblock or change status with a comment: the same domain function as PUT /v1/users/{id}/block etc. */
export function StatusActions({ userId, status }: { userId: string; status: string }) {
  const router = useRouter();
  const [target, setTarget] = useState<TTarget | null>(null);
  const [comment, setComment] = useState("");
  const change = useChangeUserStatus(userId);
  const choices = (["blocked", "active", "inactive"] as const).filter((s) => s !== status);
  if (!target)
    return (
      <div className="flex gap-2">
        {choices.map((s) => (
          <Button key={s} variant={s === "blocked" ? "danger" : "secondary"} onClick={() => setTarget(s)}>
            {s === "active" && status === "blocked" ? "Unblock user" : LABELS[s]}
          </Button>
        ))}
      </div>
    );
  return (
    <form
      aria-label={LABELS[target]}
      className="w-80 space-y-2 rounded-lg border border-slate-200 bg-white p-3 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate(
          { status: target, comment },
          {
            onSuccess: () => {
              setTarget(null);
              setComment("");
              router.refresh();
            },
          },
        );
      }}
    >
      <label className="block text-sm font-medium text-slate-700">
        Comment ({target === "blocked" ? "why block" : "why"})
        <textarea
          className={`${inputClass} mt-1`}
          rows={3}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
        />
      </label>
      {change.error && <ErrorNote>{change.error.message}</ErrorNote>}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => setTarget(null)}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant={target === "blocked" ? "danger" : "primary"}
          disabled={change.isPending}
        >
          {target === "blocked" ? "Confirm block" : "Confirm"}
        </Button>
      </div>
    </form>
  );
}
