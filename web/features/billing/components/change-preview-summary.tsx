import type { UseQueryResult } from "@tanstack/react-query";
import type { ChangePreview } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { formatMoney, previewSentences } from "./billing-format";

/**
 * A change's preview, as its confirmation dialog shows it: what is charged now (line by line), the next invoice's
 * amount and date, and whether the discount carries over. While it loads, the shape it will take; if it fails, why,
 * with a retry.
 */
export function ChangePreviewSummary({ preview }: { preview: UseQueryResult<ChangePreview> }) {
  if (preview.isPending) {
    return (
      <div className="space-y-2 rounded-lg bg-zinc-50 px-4 py-3 text-sm dark:bg-zinc-800/60">
        <p className="text-base">
          <Spinner label="Working out the price…" />
        </p>
        <Skeleton className="h-5 w-48 max-w-full" />
      </div>
    );
  }
  if (preview.isError) {
    return (
      <div className="space-y-3">
        <Alert tone="error" title="We could not work out the price">
          {errorMessage(preview.error)}
        </Alert>
        <Button variant="secondary" size="sm" onClick={() => preview.refetch()} isLoading={preview.isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  const data = preview.data;
  const sentences = previewSentences(data);
  const now = data.lines.filter((line) => line.on === "now");
  return (
    <div className="space-y-2 rounded-lg bg-zinc-50 px-4 py-3 text-sm dark:bg-zinc-800/60">
      <p className="text-base font-semibold">{sentences.now}</p>
      {data.dueNow > 0 ? (
        <ul className="space-y-1 text-zinc-600 dark:text-zinc-300" aria-label="Charged now">
          {now.map((line) => (
            <li key={line.label} className="flex justify-between gap-4">
              <span>{line.label}</span>
              <span className="tabular-nums">{formatMoney(line.amount, data.currency)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p>{sentences.next}</p>
      {sentences.discount ? <p className="text-zinc-600 dark:text-zinc-300">{sentences.discount}</p> : null}
    </div>
  );
}
