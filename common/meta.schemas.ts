/** What GET /api/meta answers: the optional features this deployment has switched on. */
export type AppMeta = {
  devMailbox: boolean;
  billingSandbox: boolean;
  /** The sign-in providers besides e-mail and password, in the order their buttons appear: `name` is the button's label. */
  socialProviders: Array<{ id: string; name: string }>;
  organizations: { whoMayCreate: "everyone" | "admins" | "nobody"; isDeletionDisabled: boolean; limit: number | null };
  /** How many days an outbound webhook's finished deliveries stay in its delivery log (WEBHOOK_RETENTION_DAYS). */
  webhooks: { deliveryRetentionDays: number };
};
