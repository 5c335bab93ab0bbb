import { randomBytes, webcrypto, X509Certificate, createPrivateKey } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as x509 from "@peculiar/x509";

/**
 * The development SAML identity provider's signing key and self-signed certificate, kept in the data folder beside
 * the development auth secret. They are made once and reused on every start, so a SAML provider registered against
 * the development IdP (which pins its certificate) keeps working across restarts.
 */

/** The one file both are kept in: the private key, then the certificate, as PEM blocks. */
export const SIGNING_FILE_NAME = "dev-saml-idp.pem";

/** The certificate outlives any development database; the IdP only ever signs with it. */
const CERTIFICATE_YEARS = 10;

export type SigningMaterial = {
  /** PKCS#8 PEM of the RSA private key. */
  privateKey: string;
  /** PEM of the self-signed X.509 certificate (what the IdP's metadata publishes). */
  certificate: string;
};

/**
 * The key and certificate in `dataDir`, made on the first call. Two processes starting together (a cluster's workers)
 * may both make a pair: each writes its own temporary file and links it into place, which only one link can do, and
 * both then read the winner's.
 */
export async function readOrCreateSigningMaterial(dataDir: string, subject: string): Promise<SigningMaterial> {
  const file = path.join(dataDir, SIGNING_FILE_NAME);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const made = await createSigningMaterial(subject);
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    writeFileSync(temporary, `${made.privateKey}${made.certificate}`, { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return parseSigningFile(file);
}

function parseSigningFile(file: string): SigningMaterial {
  const text = readFileSync(file, "utf8");
  const privateKey = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/.exec(text)?.[0];
  const certificate = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(text)?.[0];
  if (!privateKey || !certificate) {
    throw new Error(`${file} does not hold a private key and a certificate: delete it to have a new pair made`);
  }
  // Refuses a file whose key and certificate do not belong together (an edited or half-copied file).
  if (!new X509Certificate(certificate).checkPrivateKey(createPrivateKey(privateKey))) {
    throw new Error(`${file}: the certificate is not the private key's: delete it to have a new pair made`);
  }
  return { privateKey: ensureNewline(privateKey), certificate: ensureNewline(certificate) };
}

const ensureNewline = (pem: string) => (pem.endsWith("\n") ? pem : `${pem}\n`);

/** A new RSA-2048 key (what every SAML service provider verifies) and a certificate it signs for itself. */
async function createSigningMaterial(subject: string): Promise<SigningMaterial> {
  const algorithm = {
    name: "RSASSA-PKCS1-v1_5",
    hash: "SHA-256",
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const notBefore = new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CERTIFICATE_YEARS);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      // Positive: the first byte's high bit clear.
      serialNumber: `01${randomBytes(15).toString("hex")}`,
      name: `CN=${subject}`,
      notBefore,
      notAfter,
      signingAlgorithm: algorithm,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      ],
    },
    // Node's WebCrypto, typed as the library's parameter (the server's program has no DOM `Crypto`).
    webcrypto as unknown as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1],
  );
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey)).toString("base64");
  return {
    privateKey: `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/.{1,64}/g, "$&\n")}-----END PRIVATE KEY-----\n`,
    certificate: ensureNewline(certificate.toString("pem")),
  };
}
