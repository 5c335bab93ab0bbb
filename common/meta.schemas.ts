/** What GET /api/meta answers: the optional features this deployment has switched on. */
export type AppMeta = {
  devMailbox: boolean;
  billingSandbox: boolean;
  socialProviders: Array<"github" | "google">;
  organizations: { whoMayCreate: "everyone" | "admins" | "nobody"; isDeletionDisabled: boolean; limit: number | null };
};
