"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ruleKeys, rulesApi } from "@/components/rules/query";

/** Validates the definition with the rule engine 400 ms after the author stops typing. */
export function useRuleValidation(definition: Record<string, unknown>) {
  const [debounced, setDebounced] = useState(definition);
  const serialized = JSON.stringify(definition);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(JSON.parse(serialized) as Record<string, unknown>), 400);
    return () => clearTimeout(timer);
  }, [serialized]);
  return useQuery({
    queryKey: ruleKeys.validation(debounced),
    queryFn: () => rulesApi.validate(debounced),
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}
