import type { Clock } from "./clock";
import type { OrganizationRecord } from "./records";
import type { Store } from "./store";
import type { WebhookDispatcher } from "./webhook-dispatcher";

export type SandboxContext = {
  store: Store;
  clock: Clock;
  webhooks: WebhookDispatcher;
  /** The merchant account every object belongs to: the sandbox plays exactly one provider organization. */
  organization: OrganizationRecord;
  /** Absolute URL the sandbox is reachable at (no trailing slash); checkout and portal URLs start with it. */
  publicUrl: string;
  /** When set, organization API calls must carry exactly this bearer token. */
  accessToken: string | undefined;
};
