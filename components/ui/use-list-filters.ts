"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import type { TCursorStack } from "@/components/ui/keyset-pager";

type TFilters = Record<string, string | undefined>;

/**
 * Filters and keyset cursors of a list screen. Changing a filter goes back to the first page and, with
 * `syncUrl`, writes the filters into the address so a reload or a shared link shows the same list.
 */
export function useListFilters<F extends TFilters>(
  initial: F,
  { syncUrl = true }: { syncUrl?: boolean } = {},
) {
  const router = useRouter();
  const pathname = usePathname();
  const [filters, setFilters] = useState<F>(initial);
  const [cursors, setCursors] = useState<TCursorStack>([undefined]);

  function update(patch: Partial<F>) {
    const next = { ...filters, ...patch };
    setFilters(next);
    setCursors([undefined]);
    if (syncUrl) {
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(next as TFilters)) if (value) search.set(key, value);
      router.replace(`${pathname}?${search.toString()}`, { scroll: false });
    }
  }

  return { filters, update, cursor: cursors[cursors.length - 1], cursors, setCursors };
}
