import { ApiError } from "./api-error";

/** Calls the app's own JSON API (`/api/...`) and throws an ApiError for any non-2xx answer. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    credentials: "include",
    ...init,
    headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (!response.ok) throw new ApiError(body?.message ?? `Request failed (${response.status})`, response.status, body?.code);
  return body as T;
}
