"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ConfirmDialog, ErrorNote, NoteDialog } from "@/components/ui";
import { useMarkFalseMatch, useRemoveFalseMatch } from "@/components/users/hooks";

type TProps = {
  userId: string;
  datasetId: string;
  entityId: string;
  entityName: string;
  screenedName: string;
};

/** "Not this person": asks why in the shared note dialog, then records the false match for this user and entity. */
export function MarkFalseMatch({ userId, datasetId, entityId, entityName, screenedName }: TProps) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const mark = useMarkFalseMatch(userId);
  return (
    <>
      <Button variant="secondary" className="whitespace-nowrap text-xs" onClick={() => setOpen(true)}>
        Mark false match
      </Button>
      <NoteDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Mark ${entityName} as a false match`}
        testId="false-match-dialog"
        intro={`${entityName} will no longer score for this user from the next screening. Other users are not affected.`}
        noteLabel="Why is it not this person?"
        requiredMessage="Write why it is not this person: the note stays with the mark."
        submitLabel="Confirm false match"
        pending={mark.isPending}
        error={mark.error}
        onSubmit={({ note }) =>
          mark.mutate(
            { datasetId, entityId, screenedName, note },
            {
              onSuccess: () => {
                setOpen(false);
                router.refresh();
              },
            },
          )
        }
      />
    </>
  );
}

/** Withdraws a false-match mark: the entity scores for the user again from the next screening. */
export function RemoveFalseMatch({ userId, datasetId, entityId, entityName }: Omit<TProps, "screenedName">) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = useRemoveFalseMatch(userId);
  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="ghost" className="text-xs" disabled={remove.isPending} onClick={() => setOpen(true)}>
        Withdraw
      </Button>
      {remove.error && <ErrorNote>{remove.error.message}</ErrorNote>}
      <ConfirmDialog
        open={open}
        title={`Withdraw the false-match mark on ${entityName}?`}
        description={`${entityName} scores for this user again from the next screening, and sanctions rules may fire on it.`}
        confirmLabel="Withdraw mark"
        danger
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(
            { datasetId, entityId },
            {
              onSuccess: () => router.refresh(),
              onSettled: () => setOpen(false),
            },
          )
        }
        onClose={() => setOpen(false)}
      />
    </span>
  );
}
