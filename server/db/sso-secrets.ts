import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";

/**
 * How an SSO provider's secrets are stored (docs/decisions/0026). Its configuration columns hold the JSON
 * @better-auth/sso writes; each secret field `name` is kept beside the others as `nameEncrypted`, encrypted with the
 * auth secret (better-auth's symmetric encryption, as second factors and OAuth tokens are). The sso module applies
 * this to every write and read of the plugin's (a transform of each field), and migration 0026 to the rows stored
 * before. Here, below the modules, so that the migration writes exactly what the app reads.
 */

const KEY_FIELDS = ["privateKey", "privateKeyPass", "encPrivateKey", "encPrivateKeyPass"] as const;

/** The secret fields of each column, as paths of object keys in its JSON. */
const SECRET_FIELDS = {
  // The client secret, for the token request.
  oidcConfig: [["clientSecret"]],
  // Private keys and their passphrases: the service provider's (signing AuthnRequests, decrypting encrypted
  // assertions), the older top-level `privateKey`, and any the IdP's part of the configuration carries.
  samlConfig: [
    ["privateKey"],
    ...KEY_FIELDS.map((field) => ["spMetadata", field]),
    ...KEY_FIELDS.map((field) => ["idpMetadata", field]),
  ],
} satisfies Record<string, string[][]>;

export type SsoConfigColumn = keyof typeof SECRET_FIELDS;

const ENCRYPTED = "Encrypted";

type JsonObject = Record<string, unknown>;

const objectOf = (value: unknown): JsonObject | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;

function parseObject(value: unknown): JsonObject | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return objectOf(JSON.parse(value));
  } catch {
    return undefined;
  }
}

/** Each secret field of `config` whose holder is there: that object, the field's name and its path. */
function secretFieldsOf(column: SsoConfigColumn, config: JsonObject) {
  return SECRET_FIELDS[column].flatMap((path) => {
    const name = path.at(-1)!;
    const holder = path.slice(0, -1).reduce<JsonObject | undefined>((node, key) => objectOf(node?.[key]), config);
    return holder ? [{ holder, name, path: path.join(".") }] : [];
  });
}

/** The secret fields of a stored configuration, by path (`spMetadata.privateKey`): those in plain, those encrypted. */
export function storedSsoSecrets(column: SsoConfigColumn, value: unknown): { plain: string[]; encrypted: string[] } {
  const config = parseObject(value);
  const found = { plain: [] as string[], encrypted: [] as string[] };
  for (const { holder, name, path } of config ? secretFieldsOf(column, config) : []) {
    if (typeof holder[name] === "string") found.plain.push(path);
    if (typeof holder[`${name}${ENCRYPTED}`] === "string") found.encrypted.push(path);
  }
  return found;
}

/**
 * A configuration as it is stored: each secret in plain leaves the JSON, and its encrypted form takes its place
 * (`name` → `nameEncrypted`). Anything else (no secret, not a JSON object, null) is returned as it came.
 */
export async function sealSsoSecrets<T>(column: SsoConfigColumn, value: T, key: string): Promise<T | string> {
  const config = parseObject(value);
  if (!config) return value;
  let sealed = false;
  for (const { holder, name } of secretFieldsOf(column, config)) {
    const secret = holder[name];
    if (typeof secret !== "string") continue;
    delete holder[name];
    holder[`${name}${ENCRYPTED}`] = await symmetricEncrypt({ key, data: secret });
    sealed = true;
  }
  return sealed ? JSON.stringify(config) : value;
}

/**
 * A stored configuration as the plugin wrote it: each encrypted secret decrypted back into its field. A secret in
 * plain (a row written by hand, or by the previous version during an upgrade) is read as it is, and wins over an
 * encrypted one beside it (the older). One the key does not decrypt (encrypted under another auth secret) is left out
 * (`unreadable: "omit"`, the app's reads: the sign-ins that need it fail until an owner enters it again) or refused
 * (`"throw"`).
 */
export async function openSsoSecrets<T>(
  column: SsoConfigColumn,
  value: T,
  key: string,
  unreadable: "omit" | "throw",
): Promise<T | string> {
  const config = parseObject(value);
  if (!config) return value;
  let opened = false;
  for (const { holder, name, path } of secretFieldsOf(column, config)) {
    const encrypted = holder[`${name}${ENCRYPTED}`];
    if (typeof encrypted !== "string") continue;
    delete holder[`${name}${ENCRYPTED}`];
    opened = true;
    if (typeof holder[name] === "string") continue;
    try {
      holder[name] = await symmetricDecrypt({ key, data: encrypted });
    } catch {
      if (unreadable === "throw") throw new Error(`${column}.${path} does not decrypt with this auth secret`);
    }
  }
  return opened ? JSON.stringify(config) : value;
}

/** A configuration as an answer shows it: a copy without its secret fields, plain or encrypted. */
export function withoutSsoSecrets(column: SsoConfigColumn, config: unknown): unknown {
  const copy = objectOf(config) && (JSON.parse(JSON.stringify(config)) as JsonObject);
  if (!copy) return config;
  for (const { holder, name } of secretFieldsOf(column, copy)) {
    delete holder[name];
    delete holder[`${name}${ENCRYPTED}`];
  }
  return copy;
}
