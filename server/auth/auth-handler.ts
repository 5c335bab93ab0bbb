import { runWithAdapter } from "@better-auth/core/context";
import { router } from "better-auth/api";
import type { Auth } from "./auth";

type RouterContext = Parameters<typeof router>[0];

/**
 * better-auth's `auth.handler`, with its router built once. better-auth's own handler builds every endpoint's wrapper
 * (111 with the app's plugins) and a route tree again for each request (its issue 10188), for a context that, with a
 * fixed base URL and fixed trusted origins and providers, comes out the same each time: its request-derived fields
 * (base URL, trusted origins and providers) equal the ones the context was created with. So this handler needs those
 * options fixed, and refuses to be made otherwise. Measured in docs/performance.md.
 */
export function createAuthHandler(auth: Auth): (request: Request) => Promise<Response> {
  const { baseURL, trustedOrigins, account } = auth.options as {
    baseURL?: unknown;
    trustedOrigins?: unknown;
    account?: { accountLinking?: { trustedProviders?: unknown } };
  };
  const trustedProviders = account?.accountLinking?.trustedProviders;
  if (typeof baseURL !== "string" || typeof trustedOrigins === "function" || typeof trustedProviders === "function")
    throw new Error("the auth handler needs a fixed baseURL, trustedOrigins and trustedProviders");
  // better-auth's handler routes with this context; its type is the generic one the router takes, not the options'.
  const routed = (auth.$context as Promise<unknown> as Promise<RouterContext>).then((context) => ({
    context,
    handler: router(context, auth.options).handler,
  }));
  return async (request) => {
    const { context, handler } = await routed;
    return runWithAdapter(context.adapter, () => handler(request));
  };
}
