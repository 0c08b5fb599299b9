"use client";

import type { Dispatch, SetStateAction } from "react";
import { Button } from "@/components/ui";

export type TCursorStack = (string | undefined)[];

/**
 * Footer of a keyset-paginated list. `cursors` holds the cursor of every page up to the current one,
 * so going back is exact without offsets.
 */
export function KeysetPager({
  cursors,
  setCursors,
  nextCursor,
  labels = ["Newer", "Older"],
}: {
  cursors: TCursorStack;
  setCursors: Dispatch<SetStateAction<TCursorStack>>;
  nextCursor: string | null | undefined;
  labels?: [string, string];
}) {
  return (
    <div className="flex items-center justify-between text-sm">
      <span className="text-slate-600">Page {cursors.length}</span>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          disabled={cursors.length === 1}
          onClick={() => setCursors((c) => c.slice(0, -1))}
        >
          {labels[0]}
        </Button>
        <Button
          variant="secondary"
          disabled={!nextCursor}
          onClick={() => nextCursor && setCursors((c) => [...c, nextCursor])}
        >
          {labels[1]}
        </Button>
      </div>
    </div>
  );
}
