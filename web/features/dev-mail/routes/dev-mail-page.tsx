import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { EmptyState, PageHeader } from "../../../components/ui/page";
import { LoadingBlock } from "../../../components/ui/spinner";
import { TextField } from "../../../components/ui/text-field";
import { errorMessage } from "../../../lib/api-error";
import { cn } from "../../../lib/cn";
import { formatDateTime, formatRelative } from "../../../lib/format";
import { useDevMail, type DevMail } from "../api/dev-mail";

/** Splits plain text into text and clickable links. */
function linkify(text: string) {
  return text.split(/(https?:\/\/\S+)/g).map((part, index) =>
    /^https?:\/\//.test(part) ? (
      <a key={index} href={part} className="break-all text-brand-600 underline dark:text-brand-400">
        {part}
      </a>
    ) : (
      <span key={index}>{part}</span>
    ),
  );
}

function MailView({ mail }: { mail: DevMail }) {
  const [view, setView] = useState<"text" | "html">("text");
  return (
    <article
      aria-label={mail.subject}
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 className="text-lg font-semibold">{mail.subject}</h2>
      <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
        To {mail.to} · {formatDateTime(mail.createdAt)}
      </p>
      <div role="tablist" aria-label="Mail format" className="mt-4 flex gap-2">
        {(["text", "html"] as const).map((format) => (
          <button
            key={format}
            role="tab"
            type="button"
            aria-selected={view === format}
            onClick={() => setView(format)}
            className={cn(
              "rounded-md px-3 py-1 text-sm font-medium",
              view === format
                ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900"
                : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800",
            )}
          >
            {format === "text" ? "Text" : "HTML"}
          </button>
        ))}
      </div>
      {view === "text" ? (
        <pre className="mt-4 font-sans text-sm whitespace-pre-wrap">{linkify(mail.text)}</pre>
      ) : (
        <iframe
          title={`HTML of ${mail.subject}`}
          sandbox="allow-popups allow-top-navigation-by-user-activation"
          srcDoc={mail.html}
          className="mt-4 h-[520px] w-full rounded-lg border border-zinc-200 bg-white dark:border-zinc-700"
        />
      )}
    </article>
  );
}

export function DevMailPage() {
  const [to, setTo] = useState("");
  const mails = useDevMail(to.trim().toLowerCase());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = mails.data?.find((mail) => mail.id === selectedId) ?? mails.data?.[0];

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader
        title="Dev mailbox"
        description="Mail the app sends while no SMTP server is configured. It refreshes by itself."
      />
      <TextField
        label="Recipient"
        type="search"
        value={to}
        onChange={(event) => setTo(event.target.value)}
        placeholder="Filter by exact address"
        className="mb-6 max-w-sm"
      />
      {mails.isPending ? <LoadingBlock label="Loading mail…" /> : null}
      {mails.isError ? <Alert tone="error">{errorMessage(mails.error)}</Alert> : null}
      {mails.data && mails.data.length === 0 ? (
        to.trim() ? (
          <EmptyState title="No mail to this address">
            The filter matches whole addresses only: check the address, or clear the filter to see all mail.
          </EmptyState>
        ) : (
          <EmptyState title="No mail yet">Sign up or ask for a password reset, and the mail shows up here.</EmptyState>
        )
      ) : null}
      {mails.data && mails.data.length > 0 ? (
        <div className="grid items-start gap-6 lg:grid-cols-[20rem_1fr]">
          <ul
            aria-label="Mails"
            className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
          >
            {mails.data.map((mail) => (
              <li key={mail.id}>
                <button
                  type="button"
                  onClick={() => setSelectedId(mail.id)}
                  aria-current={selected?.id === mail.id || undefined}
                  className={cn(
                    "block w-full px-4 py-3 text-left text-sm hover:bg-zinc-50 dark:hover:bg-zinc-800",
                    selected?.id === mail.id && "bg-brand-50 dark:bg-brand-700/20",
                  )}
                >
                  <span className="block truncate font-medium">{mail.subject}</span>
                  <span className="mt-0.5 flex gap-2 text-xs text-zinc-500 dark:text-zinc-400">
                    <span className="min-w-0 flex-1 truncate">{mail.to}</span>
                    <time dateTime={mail.createdAt} title={formatDateTime(mail.createdAt)} className="shrink-0">
                      {formatRelative(mail.createdAt)}
                    </time>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {selected ? <MailView key={selected.id} mail={selected} /> : null}
        </div>
      ) : null}
    </div>
  );
}
