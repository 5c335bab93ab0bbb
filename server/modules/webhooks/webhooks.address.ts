import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { DomainError } from "../../../common/domain-error";
import { ERROR_CODES, WEBHOOK_ERROR_CODES } from "../../../common/error-codes";

/**
 * Which addresses a webhook may be sent to (docs/webhooks.md, "Which URLs"): the guard against making the server
 * call into its own network (SSRF). Checked at registration on what the host resolves to then, and at every delivery
 * on the address the connection is made to (`guardedLookup`), so a name that resolves elsewhere later (DNS rebinding)
 * is refused too.
 */
export type AddressPolicy = {
  /** Whether private, loopback and unresolvable targets are allowed: outside production only (the dev receiver). */
  allowPrivate: boolean;
};

/** Never reached, whatever the deployment: link-local (where cloud metadata services answer), unspecified, multicast. */
const ALWAYS_REFUSED = blockList([
  ["0.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  // Alibaba Cloud's metadata service, outside the link-local range.
  ["100.100.100.200", 32, "ipv4"],
  ["224.0.0.0", 4, "ipv4"],
  ["255.255.255.255", 32, "ipv4"],
  ["::", 128, "ipv6"],
  ["fe80::", 10, "ipv6"],
  // AWS's metadata service over IPv6.
  ["fd00:ec2::254", 128, "ipv6"],
  ["ff00::", 8, "ipv6"],
]);

/** Reached only when the policy allows private targets: loopback, private networks, carrier-grade NAT. */
const PRIVATE = blockList([
  ["127.0.0.0", 8, "ipv4"],
  ["10.0.0.0", 8, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["198.18.0.0", 15, "ipv4"],
  ["::1", 128, "ipv6"],
  ["fc00::", 7, "ipv6"],
]);

/** Host names of metadata services, refused before any lookup. */
const METADATA_HOSTS = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);

function blockList(ranges: Array<[string, number, "ipv4" | "ipv6"]>): BlockList {
  const list = new BlockList();
  for (const [network, prefix, type] of ranges) list.addSubnet(network, prefix, type);
  return list;
}

/** Why `address` may not be reached under `policy`, or null when it may. IPv4-mapped IPv6 is checked as IPv4. */
export function refusalOf(address: string, policy: AddressPolicy): "reserved" | "private" | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const type = isIP(ip) === 6 ? "ipv6" : "ipv4";
  if (ALWAYS_REFUSED.check(ip, type)) return "reserved";
  if (!policy.allowPrivate && PRIVATE.check(ip, type)) return "private";
  return null;
}

/** The URL's host without IPv6 brackets and a trailing dot, lowercase. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

function refused(address: string): DomainError {
  return DomainError.of(WEBHOOK_ERROR_CODES.WEBHOOK_URL_REFUSED, { address });
}

const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/**
 * Checks a URL at registration: its host, or every address it resolves to, must be allowed. A name that does not
 * resolve is refused in production (it could be pointed anywhere later) and allowed outside it.
 */
export async function assertAllowedUrl(value: string, policy: AddressPolicy): Promise<void> {
  if (!URL.canParse(value)) throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "url: Enter an http or https URL");
  const host = hostOf(new URL(value));
  if (METADATA_HOSTS.has(host)) throw refused(host);
  if (isIP(host)) {
    if (refusalOf(host, policy)) throw refused(host);
    return;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    if (policy.allowPrivate) return;
    throw DomainError.of(WEBHOOK_ERROR_CODES.WEBHOOK_URL_UNRESOLVABLE, { host });
  }
  const bad = addresses.find(({ address }) => refusalOf(address, policy));
  if (bad) throw refused(bad.address);
}

/** The error a delivery to a refused address ends with: no connection was made. */
export class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super(`refused to connect to ${address}: a private or reserved address`);
    this.name = "RefusedAddressError";
  }
}

/**
 * The lookup a delivery's connection uses: resolves the host once and hands the socket only addresses the policy
 * allows, so the address checked is the address connected to. A host with any refused address is refused.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true, family: options.family }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const bad = addresses.find(({ address }) => refusalOf(address, policy));
      if (bad || METADATA_HOSTS.has(hostname.toLowerCase()))
        return callback(new RefusedAddressError(bad?.address ?? hostname), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new Error(`no address for ${hostname}`), "", 0);
      callback(null, first.address, first.family);
    });
  };
}
