import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A WebAuthn authenticator in software, as the specification defines one (Web Authentication Level 2, §6): a P-256
 * key per credential, "none" attestation, ES256 assertions. It answers what a browser's `navigator.credentials`
 * would, in the JSON form @simplewebauthn/browser sends, so the tests drive the real endpoints with real signatures.
 */

type CborValue = number | string | Uint8Array | CborValue[] | Map<number | string, CborValue>;

/** The canonical CBOR (RFC 8949) of the few types attestation objects and COSE keys use. */
function cbor(value: CborValue): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    const buffer = Buffer.alloc(3);
    buffer.writeUInt8((major << 5) | 25, 0);
    buffer.writeUInt16BE(length, 1);
    return buffer;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** Authenticator-data flags: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export type CeremonyOptions = {
  /** The challenge of the options call, as it sent it (base64url). */
  challenge: string;
  /** The page's origin the browser would put in clientDataJSON. */
  origin: string;
  /** The relying party's id: its SHA-256 opens the authenticator data. */
  rpId: string;
};

export type RegistrationResponse = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
};

export type AuthenticationResponse = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
};

/** One credential of the authenticator: its id, its key, and the signature counter it keeps. */
export class SoftwareCredential {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;

  constructor() {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" }));
  }

  get id(): string {
    return base64url(this.credentialId);
  }

  /** The answer to `navigator.credentials.create()`: the new public key in COSE form, attested with "none". */
  register({ challenge, origin, rpId }: CeremonyOptions): RegistrationResponse {
    const jwk = this.publicKey.export({ format: "jwk" });
    // COSE_Key (RFC 9053): kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    const coseKey = new Map<number, CborValue>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authenticatorDataHead(rpId, UP | UV | AT),
      Buffer.alloc(16), // AAGUID: none, as a privacy-preserving authenticator reports
      credentialIdLength,
      this.credentialId,
      cbor(coseKey),
    ]);
    const attestationObject = cbor(
      new Map<string, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: clientData("webauthn.create", challenge, origin),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /** The answer to `navigator.credentials.get()`: the authenticator data and its ES256 signature (DER). */
  authenticate({ challenge, origin, rpId }: CeremonyOptions): AuthenticationResponse {
    const authenticatorData = this.authenticatorDataHead(rpId, UP | UV);
    const clientDataJSON = clientData("webauthn.get", challenge, origin);
    const signed = Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, "base64url"))]);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: base64url(authenticatorData),
        signature: base64url(sign("sha256", signed, this.privateKey)),
      },
    };
  }

  /** rpIdHash, flags and the signature counter, which goes up with every use as a real authenticator's does. */
  private authenticatorDataHead(rpId: string, flags: number): Buffer {
    this.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter]);
  }
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): string {
  return base64url(Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })));
}
