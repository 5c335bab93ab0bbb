import type { TxtRecord } from "./dev-dns.server";

/**
 * The development DNS server's page, rendered on the server like a DNS host's console: the TXT records it answers,
 * a form to publish one and a button to remove each. It is another "site" than the app: no app script loads.
 */

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] as string,
  );

const STYLE = `
  :root {
    color-scheme: light dark; --bg: #f4f6f8; --card: #fff; --text: #17202a; --muted: #56626e; --line: #d5dbe1;
    --accent: #1d4f91; --accent-text: #fff; --warn-bg: #fff4d6; --warn-line: #e8c65a; --warn-text: #5c4300;
    --error: #a1251b;
  }
  @media (prefers-color-scheme: dark) {
    :root {
      --bg: #12161b; --card: #1b2128; --text: #eef2f6; --muted: #a7b2bd; --line: #333d47; --accent: #8ab4f8;
      --accent-text: #0b1a2e; --warn-bg: #3a2f0b; --warn-line: #7a6320; --warn-text: #f5dc8c; --error: #ff8a80;
    }
  }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 ui-sans-serif, system-ui, sans-serif; background: var(--bg); color: var(--text); }
  main { max-width: 46rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
  .banner {
    border: 1px solid var(--warn-line); background: var(--warn-bg); color: var(--warn-text); border-radius: .5rem;
    padding: .75rem 1rem; font-size: .875rem; margin-bottom: 1.5rem;
  }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  h2 { font-size: 1rem; margin: 0 0 .75rem; }
  section {
    background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 1.25rem;
    margin-bottom: 1rem;
  }
  table { width: 100%; border-collapse: collapse; font-size: .875rem; }
  th, td {
    text-align: left; padding: .5rem; border-bottom: 1px solid var(--line); vertical-align: top;
    overflow-wrap: anywhere;
  }
  code { font-size: .8125rem; }
  label { display: block; font-weight: 600; font-size: .875rem; margin-bottom: .25rem; }
  input[type=text] {
    width: 100%; padding: .5rem .625rem; border: 1px solid var(--line); border-radius: .375rem;
    background: var(--bg); color: var(--text); font: inherit;
  }
  input[aria-invalid=true] { border-color: var(--error); }
  .field { margin-bottom: .875rem; }
  .error { color: var(--error); font-size: .8125rem; margin: .25rem 0 0; }
  .primary {
    padding: .5rem 1rem; border: 0; border-radius: .375rem; background: var(--accent); color: var(--accent-text);
    font: inherit; font-weight: 600; cursor: pointer;
  }
  .link {
    background: none; border: 0; padding: 0; color: var(--accent); font: inherit; text-decoration: underline;
    cursor: pointer;
  }
  .muted { color: var(--muted); font-size: .875rem; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
`;

export type DnsRecordForm = {
  values: { name?: string; value?: string };
  errors: Partial<Record<"name" | "value", string>>;
};

function field(name: "name" | "value", label: string, form: DnsRecordForm, hint: string): string {
  const error = form.errors[name];
  return `<div class="field"><label for="${name}">${label}</label><input id="${name}" name="${name}" type="text" value="${escapeHtml(
    form.values[name] ?? "",
  )}" required aria-describedby="${name}-hint${error ? ` ${name}-error` : ""}"${error ? ' aria-invalid="true"' : ""}><p class="muted" id="${name}-hint">${hint}</p>${
    error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ""
  }</div>`;
}

/** The console: where the server listens, its records, and the form to publish one. */
export function dnsPage(input: {
  basePath: string;
  address: string;
  records: TxtRecord[];
  form: DnsRecordForm;
}): string {
  const rows = input.records
    .map(
      (record) =>
        `<tr><td><code>${escapeHtml(record.name)}</code></td><td><code>${escapeHtml(record.value)}</code></td><td><form method="post" action="${escapeHtml(
          `${input.basePath}/records/remove`,
        )}"><input type="hidden" name="name" value="${escapeHtml(record.name)}"><input type="hidden" name="value" value="${escapeHtml(
          record.value,
        )}"><button class="link" type="submit" aria-label="Remove the record ${escapeHtml(record.name)}">Remove</button></form></td></tr>`,
    )
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>DNS records · Dev DNS server</title>
<style>${STYLE}</style>
</head>
<body><main>
<p class="banner" role="note"><strong>For development only.</strong> This DNS server answers the TXT records listed here, so an SSO domain can be verified offline. Real deployments leave it off and verify through real DNS.</p>
<h1>Dev DNS server</h1>
<p class="muted">Listening on <code>${escapeHtml(input.address)}</code> (UDP). Atrium verifies SSO domains through it while <code>DNS_SERVERS</code> is unset.</p>
<section aria-labelledby="records"><h2 id="records">TXT records</h2>
${
  rows
    ? `<table><thead><tr><th scope="col">Name</th><th scope="col">Value</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="muted">No records yet.</p>`
}
</section>
<section aria-labelledby="publish"><h2 id="publish">Publish a TXT record</h2>
<form method="post" action="${escapeHtml(`${input.basePath}/records`)}" novalidate>
${field("name", "Name", input.form, "The record's full name, as the SSO settings show it: _atrium-sso-&lt;provider&gt;.&lt;domain&gt;")}
${field("value", "Value", input.form, "The value the SSO settings show: atrium-sso=…")}
<button class="primary" type="submit">Publish</button>
</form></section>
</main></body>
</html>`;
}
