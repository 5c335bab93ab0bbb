import { createSocket, type RemoteInfo } from "node:dgram";
import { once } from "node:events";

/**
 * A small DNS server speaking the real protocol over UDP (RFC 1035), answering TXT queries from an in-memory store:
 * the DNS host a developer "publishes" SSO verification records at (/dev/dns), and the one each test publishes to.
 * It answers only the questions it owns (class IN); everything else is NXDOMAIN or an empty answer, never a
 * forwarded query, so it works offline and never reaches the network. It listens on loopback only.
 */

const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE_FORMERR = 1;
const RCODE_NXDOMAIN = 3;
const RCODE_NOTIMP = 4;
const HEADER_BYTES = 12;
const TTL_SECONDS = 30;

export type TxtRecord = { name: string; value: string };

/** The store behind the server: record names compared without case and without a trailing dot. */
export function createTxtStore() {
  const records = new Map<string, string[]>();
  const key = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");
  return {
    publish(name: string, value: string): void {
      const values = records.get(key(name)) ?? [];
      if (!values.includes(value)) records.set(key(name), [...values, value]);
    },
    remove(name: string, value?: string): void {
      const remaining = value === undefined ? [] : (records.get(key(name)) ?? []).filter((item) => item !== value);
      if (remaining.length > 0) records.set(key(name), remaining);
      else records.delete(key(name));
    },
    find: (name: string): string[] | undefined => records.get(key(name)),
    list: (): TxtRecord[] =>
      [...records.entries()]
        .sort(([left], [right]) => left.localeCompare(right))
        .flatMap(([name, values]) => values.map((value) => ({ name, value }))),
  };
}
export type TxtStore = ReturnType<typeof createTxtStore>;

type Question = { id: number; flags: number; name: string; type: number; klass: number; end: number };

/** The first question of a query, or null when the packet is not one this server can read. */
function readQuestion(packet: Buffer): Question | null {
  if (packet.length < HEADER_BYTES) return null;
  const id = packet.readUInt16BE(0);
  const flags = packet.readUInt16BE(2);
  if (flags & 0x8000 || packet.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let offset = HEADER_BYTES;
  for (;;) {
    if (offset >= packet.length) return null;
    const length = packet[offset]!;
    offset += 1;
    if (length === 0) break;
    // A query names its question in full: compression (0xC0) or a label over 63 bytes is not a query's.
    if (length > 63 || offset + length > packet.length) return null;
    labels.push(packet.toString("latin1", offset, offset + length));
    offset += length;
  }
  if (offset + 4 > packet.length) return null;
  return {
    id,
    flags,
    name: labels.join("."),
    type: packet.readUInt16BE(offset),
    klass: packet.readUInt16BE(offset + 2),
    end: offset + 4,
  };
}

/** A TXT record's data: its value as character-strings of at most 255 bytes each. */
function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length || start === 0; start += 255) {
    const chunk = bytes.subarray(start, start + 255);
    chunks.push(Buffer.from([chunk.length]), chunk);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(chunks);
}

/** The answer to a query: the question echoed, then the TXT records of its name. */
export function answerQuery(packet: Buffer, store: Pick<TxtStore, "find">): Buffer | null {
  if (packet.length < HEADER_BYTES) return null;
  const question = readQuestion(packet);
  const id = packet.readUInt16BE(0);
  const header = (rcode: number, answers: number, questionBytes: number) => {
    const out = Buffer.alloc(HEADER_BYTES);
    out.writeUInt16BE(id, 0);
    // QR (answer), the query's opcode and RD, AA (this server owns its names), RA off, the rcode.
    const opcodeAndRd = question ? question.flags & 0x7900 : 0;
    out.writeUInt16BE(0x8400 | opcodeAndRd | rcode, 2);
    out.writeUInt16BE(questionBytes > 0 ? 1 : 0, 4);
    out.writeUInt16BE(answers, 6);
    return out;
  };
  if (!question) return header(RCODE_FORMERR, 0, 0);
  const questionBytes = packet.subarray(HEADER_BYTES, question.end);
  if ((question.flags >> 11) & 0xf) return Buffer.concat([header(RCODE_NOTIMP, 0, 1), questionBytes]);
  const values = store.find(question.name);
  if (!values) return Buffer.concat([header(RCODE_NXDOMAIN, 0, 1), questionBytes]);
  const matches = question.type === TYPE_TXT && question.klass === CLASS_IN ? values : [];
  const answers = matches.map((value) => {
    const data = txtData(value);
    const record = Buffer.alloc(12);
    // The name is a pointer to the question's (offset 12), then type, class, TTL and the data's length.
    record.writeUInt16BE(0xc000 | HEADER_BYTES, 0);
    record.writeUInt16BE(TYPE_TXT, 2);
    record.writeUInt16BE(CLASS_IN, 4);
    record.writeUInt32BE(TTL_SECONDS, 6);
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header(0, answers.length, 1), questionBytes, ...answers]);
}

export type DevDnsServer = {
  /** Where it listens, as DNS_SERVERS names a server: `127.0.0.1:port`. */
  address: string;
  records: TxtStore;
  close(): Promise<void>;
};

/** Starts the server on 127.0.0.1 (`port` 0: a free one). */
export async function startDevDnsServer(options: { port?: number; records?: TxtStore } = {}): Promise<DevDnsServer> {
  const records = options.records ?? createTxtStore();
  const socket = createSocket("udp4");
  socket.on("message", (packet: Buffer, peer: RemoteInfo) => {
    const answer = answerQuery(packet, records);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  socket.bind(options.port ?? 0, "127.0.0.1");
  await once(socket, "listening");
  // Once listening, a send to a client that went away is not the server's problem.
  socket.on("error", () => {});
  return {
    address: `127.0.0.1:${socket.address().port}`,
    records,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
