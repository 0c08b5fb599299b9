"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, DoneNote, NoteDialog } from "@/components/ui";
import { useChangeUserStatus } from "@/components/users/hooks";
import { formatCount } from "@/lib/format";

type TTarget = "blocked" | "active" | "inactive";
const LABELS: Record<TTarget, string> = {
  blocked: "Block user",
  active: "Unblock / activate",
  inactive: "Set inactive",
};
// What the change does to screening, said before it is made: a status is what rules read on the next transaction.
export function statusChangeEffect(target: TTarget, current: string): string {
  if (target === "blocked")
    return "From now on screening sees this user as blocked: rules that read the user's status fire on their next transactions. Subscribers get user.status.block.";
  const seen = `From now on screening sees this user as ${target}.`;
  return current === "blocked"
    ? `${seen} Rules on a blocked status stop firing for them; alerts already settled stay as they are. Subscribers get user.status.unblock.`
    : `${seen} No webhook is sent for this change.`;
}

const DONE: Record<TTarget, string> = {
  blocked: "User blocked.",
  active: "User active again.",
  inactive: "User set inactive.",
};

/**
 * Block, unblock or change status with a comment: the same domain function as PUT /v1/users/{id}/block etc.
 * A block needs its reason and, by default, confirms the user's open alerts with it.
 */
export function StatusActions({ userId, status }: { userId: string; status: string }) {
  const router = useRouter();
  const [target, setTarget] = useState<TTarget | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const change = useChangeUserStatus(userId);
  const choices = (["blocked", "active", "inactive"] as const).filter((s) => s !== status);
  const blocking = target === "blocked";
  const close = () => {
    setTarget(null);
    change.reset();
  };
  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex gap-2">
        {choices.map((s) => (
          <Button
            key={s}
            variant={s === "blocked" ? "danger" : "secondary"}
            onClick={() => {
              setDone(null);
              setTarget(s);
            }}
          >
            {s === "active" && status === "blocked" ? "Unblock user" : LABELS[s]}
          </Button>
        ))}
      </div>
      {done && <DoneNote>{done}</DoneNote>}
      <NoteDialog
        open={target !== null}
        onClose={close}
        title={target ? LABELS[target] : ""}
        testId="status-dialog"
        intro={target ? statusChangeEffect(target, status) : undefined}
        noteLabel={blocking ? "Why block this user?" : "Comment"}
        requiredMessage={blocking ? "Write why you block this user: it is sent with the block." : undefined}
        optionLabel={blocking ? <>Also confirm the user&apos;s open alerts with this reason</> : undefined}
        submitLabel={blocking ? "Confirm block" : "Confirm"}
        danger={blocking}
        pending={change.isPending}
        error={change.error}
        onSubmit={({ note, option }) => {
          if (!target) return;
          change.mutate(
            { status: target, comment: note, closeAlerts: option },
            {
              onSuccess: (result) => {
                setDone(
                  result.alertsClosed > 0
                    ? `${DONE[target]} ${formatCount(result.alertsClosed, "open alert")} confirmed with your reason.`
                    : DONE[target],
                );
                close();
                router.refresh();
              },
            },
          );
        }}
      />
    </div>
  );
}
