import { createHash } from "node:crypto";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { DevIdentity } from "./dev-identity.schemas";

/**
 * The development identity provider keeps everything in this process's memory: its identities and
 * oidc-provider's short-lived records (interactions, sessions, codes, tokens, grants). A restart only ends
 * the sign-ins in progress; the subjects it asserts are derived from the e-mail, so accounts linked to them
 * keep working. Both stores are bounded, so a development deployment cannot be made to grow without end.
 */

const MAX_RECORDS = 10_000;
const MAX_MADE_UP_IDENTITIES = 50;

/** The identities the login page lists from the start (the development SAML IdP lists the same people). */
export const PRESET_IDENTITIES: ReadonlyArray<Omit<DevIdentity, "sub">> = [
  { name: "Ada Lovelace", email: "ada@example.com", emailVerified: true },
  { name: "Grace Hopper", email: "grace@example.com", emailVerified: true },
  { name: "Alan Turing", email: "alan@example.com", emailVerified: false },
];

/** One identity per e-mail address, as at a real provider: the subject never changes for an address. */
export function subjectOf(email: string): string {
  return `dev-${createHash("sha256").update(email.trim().toLowerCase()).digest("base64url").slice(0, 22)}`;
}

export type IdentityStore = ReturnType<typeof createIdentityStore>;

/** The preset identities, then those made up on the login page, most recent first. */
export function createIdentityStore() {
  const presets = PRESET_IDENTITIES.map((identity) => ({ ...identity, sub: subjectOf(identity.email) }));
  const madeUp = new Map<string, DevIdentity>();
  return {
    list(): DevIdentity[] {
      return [...presets.filter((preset) => !madeUp.has(preset.sub)), ...[...madeUp.values()].reverse()];
    },
    find(sub: string): DevIdentity | undefined {
      return madeUp.get(sub) ?? presets.find((preset) => preset.sub === sub);
    },
    /** Made-up details replace any earlier ones for the same address (a preset's included). */
    save(identity: Omit<DevIdentity, "sub">): DevIdentity {
      const saved = { ...identity, email: identity.email.toLowerCase(), sub: subjectOf(identity.email) };
      madeUp.delete(saved.sub);
      madeUp.set(saved.sub, saved);
      if (madeUp.size > MAX_MADE_UP_IDENTITIES) madeUp.delete(madeUp.keys().next().value as string);
      return saved;
    },
  };
}

type StoredRecord = { payload: AdapterPayload; expiresAt: number };

/**
 * oidc-provider's storage interface over one Map per process. Expired records are never returned and are
 * swept on write; past `MAX_RECORDS` the oldest go first.
 */
export function createMemoryAdapter(): new (model: string) => Adapter {
  const records = new Map<string, StoredRecord>();
  const now = () => Date.now();
  const live = (key: string): AdapterPayload | undefined => {
    const record = records.get(key);
    if (!record) return undefined;
    if (record.expiresAt > now()) return record.payload;
    records.delete(key);
    return undefined;
  };
  const sweep = () => {
    const time = now();
    for (const [key, record] of records) if (record.expiresAt <= time) records.delete(key);
    while (records.size > MAX_RECORDS) records.delete(records.keys().next().value as string);
  };
  const findWhere = (model: string, matches: (payload: AdapterPayload) => boolean) => {
    for (const key of records.keys()) {
      if (!key.startsWith(`${model}:`)) continue;
      const payload = live(key);
      if (payload && matches(payload)) return payload;
    }
    return undefined;
  };

  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      records.delete(this.key(id));
      records.set(this.key(id), { payload, expiresAt: now() + expiresIn * 1000 });
      if (records.size > MAX_RECORDS / 2) sweep();
    }

    async find(id: string) {
      return live(this.key(id));
    }

    async findByUid(uid: string) {
      return findWhere(this.model, (payload) => payload.uid === uid);
    }

    async findByUserCode(userCode: string) {
      return findWhere(this.model, (payload) => payload.userCode === userCode);
    }

    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(now() / 1000);
    }

    async destroy(id: string) {
      records.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string) {
      for (const [key, record] of records) if (record.payload.grantId === grantId) records.delete(key);
    }
  };
}
