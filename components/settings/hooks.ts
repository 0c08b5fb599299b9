"use client";

import { useMutation, useMutationState } from "@tanstack/react-query";
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

const GOAML_SCHEMA_UPLOAD = ["settings", "goaml-schema"] as const;

/** Uploads the FIU's goAML XSD (the file as the raw body), or with `null` goes back to the generic schema. */
export function useGoamlSchemaUpload() {
  const router = useRouter();
  return useMutation({
    mutationKey: GOAML_SCHEMA_UPLOAD,
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

/**
 * Whether the latest schema upload succeeded. The settings form is remounted when the active schema changes
 * (its key), which would drop the upload's own state, and with it the confirmation, as soon as the page
 * has refreshed; the mutation cache outlives the form.
 */
export function useGoamlSchemaSaved(): boolean {
  const statuses = useMutationState({
    filters: { mutationKey: GOAML_SCHEMA_UPLOAD },
    select: (mutation) => mutation.state.status,
  });
  return statuses.at(-1) === "success";
}
