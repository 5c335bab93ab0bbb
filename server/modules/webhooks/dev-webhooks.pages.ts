/**
 * The development webhook receiver's page, rendered on the server: another "site" than the app (no app script), like
 * the development DNS console.
 */

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] as string,
  );

const STYLE = `
  :root { color-scheme: light dark; }
  body { margin: 0; font: 16px/1.5 ui-sans-serif, system-ui, sans-serif; }
  main { max-width: 52rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
  .banner { border: 1px solid #e8c65a; background: #fff4d6; color: #5c4300; border-radius: .5rem; padding: .75rem 1rem; }
  article { border: 1px solid #d5dbe1; border-radius: .75rem; padding: 1rem; margin: 1rem 0; }
  pre { white-space: pre-wrap; word-break: break-all; font-size: .8125rem; margin: .5rem 0 0; }
  code { font-size: .875rem; }
`;

export type DevReceipt = {
  id: string;
  receivedAt: string;
  headers: Record<string, string>;
  body: string;
  verified: boolean;
};

export function devWebhooksPage(input: { receiverUrl: string; retentionDays: number; receipts: DevReceipt[] }): string {
  const receipts = input.receipts
    .map((receipt) => {
      const headers = Object.entries(receipt.headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join("\n");
      return `<article>
  <strong>${receipt.verified ? "Signature verified" : "Signature NOT verified"}</strong>
  · <time>${escapeHtml(receipt.receivedAt)}</time>
  <pre>${escapeHtml(headers)}</pre>
  <pre>${escapeHtml(receipt.body)}</pre>
</article>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Development webhook receiver</title><style>${STYLE}</style></head>
<body><main>
  <p class="banner">Development only: this receiver is never mounted in production.</p>
  <h1>Development webhook receiver</h1>
  <p>Register <code>${escapeHtml(input.receiverUrl)}</code> as a webhook endpoint of an organization; what it is sent
  appears here, newest first. Reload to see new deliveries. What it received goes after
  ${input.retentionDays === 1 ? "1 day" : `${input.retentionDays} days`} (<code>WEBHOOK_RETENTION_DAYS</code>), as the
  delivery log's history does.</p>
  ${receipts || "<p>Nothing received yet.</p>"}
</main></body>
</html>`;
}
