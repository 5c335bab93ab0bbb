import { AsyncLocalStorage } from "node:async_hooks";
import { getCurrentDBAdapterAsyncLocalStorage } from "@better-auth/core/context";
import { TransactionBuilder, type Kysely, type Transaction } from "kysely";
import type { Database } from "./schema";

/** The Kysely transaction better-auth is running, with the instance it was opened on. */
const openTransaction = new AsyncLocalStorage<{ db: Kysely<Database>; trx: Transaction<Database> }>();
/** Each shared instance → the app's instance it wraps, so either one finds the transaction. */
const wrapped = new WeakMap<Kysely<Database>, Kysely<Database>>();

/**
 * The app's Kysely instance as better-auth's database: the same instance, except that the transactions
 * better-auth opens on it are remembered for the code that runs inside them (see `currentDatabase`).
 * better-auth opens them through `db.transaction().execute(...)`, which is all this changes.
 */
export function shareTransactions(db: Kysely<Database>): Kysely<Database> {
  const shared = new Proxy(db, {
    get(target, property) {
      if (property === "transaction") return () => rememberingTransaction(db, target.transaction());
      const value: unknown = Reflect.get(target, property, target);
      // Kysely keeps its state in private fields: its methods must run on the instance itself. Getters
      // (such as `fn`, a function with properties) already ran on it and are answered as they are.
      return typeof value === "function" && isMethod(target, property) ? value.bind(target) : value;
    },
  });
  wrapped.set(shared, db);
  return shared;
}

function isMethod(object: object, property: string | symbol): boolean {
  for (let current: object | null = object; current; current = Object.getPrototypeOf(current) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(current, property);
    if (descriptor) return "value" in descriptor && typeof descriptor.value === "function";
  }
  return false;
}

function rememberingTransaction(
  db: Kysely<Database>,
  builder: TransactionBuilder<Database>,
): TransactionBuilder<Database> {
  return new Proxy(builder, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "execute") {
        return <T>(callback: (trx: Transaction<Database>) => Promise<T>) =>
          target.execute((trx) => openTransaction.run({ db, trx }, () => callback(trx)));
      }
      // setIsolationLevel() and its kind answer a new builder: it remembers as well.
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result instanceof TransactionBuilder
          ? rememberingTransaction(db, result as TransactionBuilder<Database>)
          : result;
      };
    },
  });
}

/**
 * The handle for a query made from inside better-auth (a hook, a rule of a plugin): the transaction
 * better-auth is running when there is one, else `db`. On SQLite a transaction holds the only connection,
 * so a query through `db` itself inside it would wait for that connection forever; on PostgreSQL it would
 * not see the transaction's own writes. Fails loudly when better-auth runs a transaction this cannot see
 * (its database is not `shareTransactions(db)`), rather than hanging.
 */
export async function currentDatabase(db: Kysely<Database>): Promise<Kysely<Database>> {
  const open = openTransaction.getStore();
  if (open && open.db === (wrapped.get(db) ?? db)) return open.trx;
  const betterAuthStore = (await getCurrentDBAdapterAsyncLocalStorage()).getStore();
  if (betterAuthStore?.isTransactionActive) {
    throw new Error(
      "better-auth runs a transaction on a database the app cannot see: give it shareTransactions(db) as its database",
    );
  }
  return db;
}
