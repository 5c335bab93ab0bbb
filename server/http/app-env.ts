/** Hono's typed context for the whole app: what middleware hands to the handlers after it. */
export type AppEnv = {
  Variables: {
    clientIp: string | undefined;
  };
};
