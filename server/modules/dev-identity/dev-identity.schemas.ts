import { z } from "zod";
import { emailSchema, nameSchema } from "../../../common/account.schemas";

/** Someone the development identity provider can sign in as: what its ID tokens and userinfo assert. */
export type DevIdentity = { sub: string; name: string; email: string; emailVerified: boolean };

/** The login page's first form: one of the listed identities, by subject. */
export const pickIdentitySchema = z.strictObject({
  identity: z.string().min(1, "Choose an identity").max(64, "Choose a listed identity"),
});

/** The login page's second form: an identity made up on the spot (an unchecked box is not sent at all). */
export const madeUpIdentitySchema = z.strictObject({
  name: nameSchema,
  email: emailSchema,
  emailVerified: z.literal("on").optional(),
});

export type MadeUpIdentityInput = z.infer<typeof madeUpIdentitySchema>;
