export {
  adminOrganizationListQuerySchema,
  adminOrganizationParamsSchema,
  adminUserListQuerySchema,
  adminUserParamsSchema,
  assignOwnerSchema,
  resetSecondFactorsSchema,
  type AdminOrganizationDetail,
  type AdminOrganizationList,
  type AdminUserDetail,
  type AdminUserList,
  type AdminUserListItem,
  type SecondFactorsReset,
} from "../../../common/admin.schemas";
import type { SubscriptionStatus } from "../../../common/billing.schemas";

/** The organizations' plans, from the billing module (`Billing.plansOf`), for the organizations list. */
export type PlansOf = (
  organizationIds: string[],
) => Promise<Map<string, { plan: { key: string; name: string }; status: SubscriptionStatus | null }>>;
