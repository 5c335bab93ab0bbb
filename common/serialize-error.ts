/**
 * An error as a plain object (an Error's own fields are not enumerable, so JSON would print `{}`). Not the
 * driver's `detail`: PostgreSQL puts row values there ("Key (username)=(alice) already exists").
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const { name, message, stack } = error;
  const extra = Object.fromEntries(
    Object.entries(error).filter(([key]) => ["code", "status", "statusCode", "errno", "constraint"].includes(key)),
  );
  const cause = error.cause !== undefined && depth < 3 ? { cause: serializeError(error.cause, depth + 1) } : {};
  return { name, message, ...extra, stack, ...cause };
}
