"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ErrorNote, inputClass } from "@/components/ui";
import { useMarkFalseMatch, useRemoveFalseMatch } from "@/components/users/hooks";

type TProps = {
  userId: string;
  datasetId: string;
  entityId: string;
  entityName: string;
  screenedName: string;
};

/** "Not this person": asks why, then records the false match for this user and entity. */
export function MarkFalseMatch({ userId, datasetId, entityId, entityName, screenedName }: TProps) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const mark = useMarkFalseMatch(userId);
  if (!open)
    return (
      <Button variant="secondary" className="whitespace-nowrap text-xs" onClick={() => setOpen(true)}>
        Mark false match
      </Button>
    );
  return (
    <form
      aria-label={`Mark ${entityName} as a false match`}
      className="w-72 space-y-2 rounded-lg border border-slate-200 bg-white p-3 text-left shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        mark.mutate(
          { datasetId, entityId, screenedName, note },
          {
            onSuccess: () => {
              setOpen(false);
              router.refresh();
            },
          },
        );
      }}
    >
      <p className="text-xs text-slate-600">
        {entityName} will no longer score for this user. Other users are not affected.
      </p>
      <label className="block text-xs font-medium text-slate-700">
        Why is it not this person?
        <textarea
          className={`${inputClass} mt-1`}
          rows={2}
          autoFocus
          required
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </label>
      {mark.error && <ErrorNote>{mark.error.message}</ErrorNote>}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={mark.isPending || !note.trim()}>
          Confirm false match
        </Button>
      </div>
    </form>
  );
}

/** Withdraws a false-match mark: the entity scores for the user again from the next screening. */
export function RemoveFalseMatch({
  userId,
  datasetId,
  entityId,
}: Omit<TProps, "entityName" | "screenedName">) {
  const router = useRouter();
  const remove = useRemoveFalseMatch(userId);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="ghost"
        className="text-xs"
        disabled={remove.isPending}
        onClick={() => remove.mutate({ datasetId, entityId }, { onSuccess: () => router.refresh() })}
      >
        Withdraw
      </Button>
      {remove.error && <ErrorNote>{remove.error.message}</ErrorNote>}
    </span>
  );
}
