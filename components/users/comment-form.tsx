"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ErrorNote, inputClass } from "@/components/ui";
import { useAddComment } from "@/components/users/hooks";

export function CommentForm({ userId, transactionId }: { userId: string; transactionId?: string }) {
  const router = useRouter();
  const [comment, setComment] = useState("");
  const add = useAddComment(userId);
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!comment.trim()) return;
        add.mutate(
          { comment, transactionId },
          {
            onSuccess: () => {
              setComment("");
              router.refresh();
            },
          },
        );
      }}
    >
      <label className="block text-sm font-medium text-slate-700">
        Add a comment
        <textarea
          className={`${inputClass} mt-1`}
          rows={2}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
        />
      </label>
      {add.error && <ErrorNote>{add.error.message}</ErrorNote>}
      <div className="flex justify-end">
        <Button type="submit" disabled={add.isPending || !comment.trim()}>
          Post comment
        </Button>
      </div>
    </form>
  );
}
