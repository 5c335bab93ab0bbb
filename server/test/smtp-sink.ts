import { createServer, type Server, type Socket } from "node:net";
import { freePort } from "./free-port";

/** One message as the sink received it: the envelope and the raw data (headers and body, dot-unstuffed). */
export type SinkMessage = { from: string; to: string[]; data: string };

/** A real SMTP server for tests, as little of the protocol as nodemailer speaks without TLS or authentication. */
export type SmtpSink = {
  port: number;
  /** `smtp://127.0.0.1:PORT`, for SMTP_URL. */
  url: string;
  /** Every message whose data arrived, in order (accepted, or held and about to be). */
  messages: SinkMessage[];
  /** The messages the sink has answered 250 for, in order: `messages` but for those still held. */
  accepted: SinkMessage[];
  /** The messages accepted for `recipient`. */
  messagesTo(recipient: string): SinkMessage[];
  /** Listening, answering at once. */
  up(): Promise<void>;
  /** The port closed and every open connection cut: a connection is refused. */
  down(): Promise<void>;
  /** Listening, but each answer (the greeting included) comes `delayMs` late. */
  slow(delayMs: number): Promise<void>;
  /**
   * Listening and answering at once, but each message is accepted only `holdMs` after its data arrived, or, without
   * `holdMs`, once `release()` is called. Until then a held message's answer is kept coming, one continuation line
   * (`250-`) every few seconds, as a slow server's would: the client's socket timeout (SMTP_TIMEOUTS) counts silence.
   */
  hold(holdMs?: number): Promise<void>;
  /** Accepts the messages held until now, and from now on accepts at once. */
  release(): void;
  close(): Promise<void>;
};

/** A held message's answer goes on this often: well under SMTP_TIMEOUTS.socketTimeout (a test once held one 57 s). */
const HELD_ANSWER_EVERY_MS = 5_000;

/**
 * Starts the sink on a free port of 127.0.0.1, up. It accepts every message (250 after the data) and records it
 * by its RCPT TO addresses, so a test counts what reached the mail server per recipient.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const messages: SinkMessage[] = [];
  const accepted: SinkMessage[] = [];
  const sockets = new Set<Socket>();
  let delayMs = 0;
  let holdMs: number | undefined = 0;
  /** The acceptances waiting for `release()`. */
  const held: Array<() => void> = [];
  let server: Server | undefined;

  function answer(socket: Socket, line: string): void {
    const write = () => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    if (delayMs > 0) setTimeout(write, delayMs);
    else write();
  }

  function session(socket: Socket): void {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buffer = "";
    let envelope: { from: string; to: string[] } = { from: "", to: [] };
    let dataLines: string[] | undefined;
    answer(socket, "220 sink ESMTP ready");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (dataLines) {
          if (line === ".") {
            const message = { ...envelope, data: dataLines.join("\r\n") };
            messages.push(message);
            envelope = { from: "", to: [] };
            dataLines = undefined;
            let pending: NodeJS.Timeout | undefined;
            const accept = () => {
              clearInterval(pending);
              if (socket.destroyed) return;
              accepted.push(message);
              answer(socket, "250 2.0.0 queued");
            };
            if (holdMs === undefined) {
              held.push(accept);
              pending = setInterval(() => {
                if (socket.destroyed) clearInterval(pending);
                else answer(socket, "250-2.0.0 still accepting");
              }, HELD_ANSWER_EVERY_MS);
            } else setTimeout(accept, holdMs);
          } else dataLines.push(line.startsWith(".") ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        const argument = /<([^>]*)>/.exec(line)?.[1] ?? "";
        if (verb === "EHLO" || verb === "HELO") answer(socket, "250 sink");
        else if (verb === "MAIL") {
          envelope = { from: argument, to: [] };
          answer(socket, "250 2.1.0 ok");
        } else if (verb === "RCPT") {
          envelope.to.push(argument);
          answer(socket, "250 2.1.5 ok");
        } else if (verb === "DATA") {
          dataLines = [];
          answer(socket, "354 end data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          answer(socket, "221 2.0.0 bye");
          socket.end();
        } else if (verb === "RSET" || verb === "NOOP") answer(socket, "250 ok");
        else answer(socket, "502 5.5.2 command not implemented");
      }
    });
  }

  async function listen(): Promise<void> {
    if (server) return;
    const listening = createServer(session);
    await new Promise<void>((resolve, reject) => {
      listening.once("error", reject);
      listening.listen(port, "127.0.0.1", () => resolve());
    });
    server = listening;
  }

  async function unlisten(): Promise<void> {
    const listening = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (listening) await new Promise<void>((resolve) => listening.close(() => resolve()));
  }

  const sink: SmtpSink = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    accepted,
    messagesTo: (recipient) => messages.filter((message) => message.to.includes(recipient)),
    async up() {
      delayMs = 0;
      holdMs = 0;
      await listen();
    },
    down: unlisten,
    async slow(ms) {
      delayMs = ms;
      holdMs = 0;
      await listen();
    },
    async hold(ms) {
      delayMs = 0;
      holdMs = ms;
      await listen();
    },
    release() {
      holdMs = 0;
      for (const accept of held.splice(0)) accept();
    },
    close: unlisten,
  };
  await listen();
  return sink;
}
