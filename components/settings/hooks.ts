"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { apiFetch, toQuery } from "@/components/api/client";
import type { TSettingsView } from "@/lib/admin/settings";

/** Saves the settings form; the page is server-rendered, so it refreshes after a change. */
export function useSaveSettings(body: () => unknown) {
  const router = useRouter();
  return useMutation({
    mutationFn: () => apiFetch<TSettingsView>("/dashboard-api/settings", { method: "PUT", json: body() }),
    onSuccess: () => router.refresh(),
  });
}

/** Uploads the FIU's goAML XSD (the file as the raw body), or with `null` goes back to the generic schema. */
export function useGoamlSchemaUpload() {
  const router = useRouter();
  return useMutation({
    mutationFn: async (file: File | null) =>
      apiFetch<unknown>(
        `/dashboard-api/settings/goaml-schema${toQuery({ name: file?.name })}`,
        file
          ? { method: "PUT", headers: { "content-type": "application/xml" }, body: await file.text() }
          : { method: "DELETE" },
      ),
    onSuccess: () => router.refresh(),
  });
}
