import type { SandboxContext } from "./context";
import type { CustomerRecord } from "./records";

/** The portal signs in with a customer-session token (`polar_cst_…`) instead of the organization token. */

/** The live customer an unexpired session token belongs to; the token is found through its index. */
export function findPortalCustomer(ctx: SandboxContext, token: string): CustomerRecord | undefined {
  const session = ctx.store.findBy("customer_session", "token", token);
  const customer =
    session && session.expires_at > ctx.clock.iso() ? ctx.store.get("customer", session.customer_id) : undefined;
  return customer && !customer.deleted_at ? customer : undefined;
}
