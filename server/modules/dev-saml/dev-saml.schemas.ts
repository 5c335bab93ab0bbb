import { z } from "zod";
import { emailSchema, nameSchema } from "../../../common/account.schemas";

/** How the AuthnRequest reached the IdP: in the query (HTTP-Redirect, deflated) or in a form (HTTP-POST). */
export const bindingSchema = z.enum(["redirect", "post"]);
export type SamlBinding = z.infer<typeof bindingSchema>;

/** A base64 SAML message: an AuthnRequest is a few KB; the XML checks refuse more than 256 KB decoded anyway. */
const samlMessageSchema = z
  .string({ error: "SAMLRequest is required" })
  .min(1, "SAMLRequest is required")
  .max(400_000, "SAMLRequest is too large");
/** The service provider's opaque state: SAML bindings limit it to 80 bytes, the sso plugin's is longer. */
const relayStateSchema = z.string().max(4_096, "RelayState is too long").optional();

/** The AuthnRequest as a service provider sends it, by either binding. */
export const authnRequestMessageSchema = z.object({
  SAMLRequest: samlMessageSchema,
  RelayState: relayStateSchema,
});

/** What every login form carries back: the AuthnRequest it answers, as the service provider sent it. */
const pendingRequestShape = {
  binding: bindingSchema,
  SAMLRequest: samlMessageSchema,
  RelayState: relayStateSchema,
};

/** The login page's first form: one of the listed identities, by e-mail address. */
export const pickIdentitySchema = z.strictObject({
  ...pendingRequestShape,
  identity: emailSchema,
});

/** The login page's second form: an identity made up on the spot (an unchecked box is not sent at all). */
export const madeUpIdentitySchema = z.strictObject({
  ...pendingRequestShape,
  name: nameSchema,
  email: emailSchema,
  emailVerified: z.literal("on").optional(),
});

/** The AuthnRequest a login form answers. */
export type PendingRequest = { binding: SamlBinding; SAMLRequest: string; RelayState?: string };

/** Someone the development SAML IdP asserts: the NameID and the attributes of its response. */
export type SamlIdentity = { name: string; email: string; emailVerified: boolean };
