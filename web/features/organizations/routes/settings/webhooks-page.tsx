import { useRef, useState, type FormEvent } from "react";
import {
  WEBHOOK_EVENT_TYPES,
  createWebhookSchema,
  type WebhookEndpoint,
  type WebhookEventType,
} from "../../../../../common/webhook.schemas";
import { Alert } from "../../../../components/ui/alert";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { CopyField } from "../../../../components/ui/copy-field";
import { ConfirmDialog, Dialog } from "../../../../components/ui/dialog";
import { TextField } from "../../../../components/ui/text-field";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { errorMessage } from "../../../../lib/api-error";
import { formatDateTime } from "../../../../lib/format";
import { useAppMeta } from "../../../../lib/meta";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliver,
  useRevealSecret,
  useRotateSecret,
  useSendTestEvent,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from "../../api/webhooks";
import { useOrganizationContext } from "../../components/organization-context";

const EVENT_LABELS: Record<WebhookEventType, string> = {
  "member.added": "A member joined",
  "member.removed": "A member left or was removed",
  "member.role_changed": "A member's role changed",
  "invitation.created": "An invitation was sent",
  "invitation.accepted": "An invitation was accepted",
  "team.created": "A team was created",
  "team.deleted": "A team was deleted",
  "subscription.updated": "The subscription changed",
};

const DISABLED_REASONS = {
  gone: "Turned off: the endpoint answered 410 Gone",
  failing: "Turned off: deliveries failed for days",
} as const;

/**
 * The organization's outbound webhooks (docs/webhooks.md): its endpoints and the events each receives, the signing
 * secret (shown once in a dialog when the endpoint is added, then on "Reveal"; rotated with a day of overlap), a test
 * event, and each endpoint's delivery log with redelivery. Owners and admins only: the tab is not shown to members.
 */
export function WebhooksPage() {
  const { organization, can } = useOrganizationContext();
  const mayManage = can({ organization: ["update"] });
  const webhooks = useWebhooks(organization.id, mayManage);
  const remove = useDeleteWebhook(organization.id);
  const [created, setCreated] = useState<CreatedEndpoint | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  const listTitle = useRef<HTMLHeadingElement>(null);

  if (!mayManage)
    return (
      <Card>
        <CardHeader title="Webhooks" />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Only owners and admins can manage webhooks.</p>
      </Card>
    );
  return (
    <div className="space-y-6">
      <NewEndpoint organizationId={organization.id} onCreated={setCreated} />
      <Card>
        <CardHeader
          title="Endpoints"
          titleRef={listTitle}
          description="Each endpoint receives the events it subscribes to, in order, signed with its own secret."
        />
        {webhooks.isPending ? (
          <LoadingBlock label="Loading webhooks…" />
        ) : webhooks.isError ? (
          <Alert tone="error" title="Webhooks could not load">
            <p>{errorMessage(webhooks.error)}</p>
            <Button variant="secondary" size="sm" className="mt-3" onClick={() => void webhooks.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : webhooks.data.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No endpoints yet. Add one above.</p>
        ) : (
          <ul aria-label="Endpoints" className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {webhooks.data.map((endpoint) => (
              <EndpointRow
                key={endpoint.id}
                organizationId={organization.id}
                endpoint={endpoint}
                onRemove={() => setRemoving(endpoint)}
              />
            ))}
          </ul>
        )}
      </Card>
      {/* Outside the rows, so that it outlives the removed endpoint's row and hands focus to the list's title. */}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={`Remove ${removing?.url ?? "this endpoint"}?`}
        description="Nothing more is sent to it, and its secret and delivery log are deleted. This cannot be undone."
        confirmLabel="Remove endpoint"
        onConfirm={() => (removing ? remove.mutateAsync(removing.id) : Promise.resolve())}
        fallbackFocus={listTitle}
      />
      <Dialog
        open={created !== null}
        onOpenChange={(open) => {
          if (!open) setCreated(null);
        }}
        title="Copy the signing secret"
        description={
          created
            ? `Verify each delivery to ${created.url} with this secret. Its Reveal secret button shows it again.`
            : undefined
        }
      >
        {created ? (
          <div className="space-y-4">
            <CopyField label="Signing secret" value={created.secret} />
            <div className="flex justify-end">
              <Button onClick={() => setCreated(null)}>Done</Button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </div>
  );
}

type CreatedEndpoint = { url: string; secret: string };
type FormErrors = { url?: string; description?: string; events?: string };

function NewEndpoint({
  organizationId,
  onCreated,
}: {
  organizationId: string;
  onCreated: (created: CreatedEndpoint) => void;
}) {
  const create = useCreateWebhook(organizationId);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [errors, setErrors] = useState<FormErrors>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createWebhookSchema.safeParse({ url, events, description: description || undefined });
    if (!parsed.success) {
      const fields = parsed.error.flatten().fieldErrors;
      return setErrors({ url: fields.url?.[0], description: fields.description?.[0], events: fields.events?.[0] });
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: ({ secret }) => {
        onCreated({ url: parsed.data.url, secret });
        setUrl("");
        setDescription("");
        setEvents([]);
      },
    });
  }

  return (
    <Card>
      <CardHeader
        title="Add an endpoint"
        description="We POST each event you choose to this URL, signed per the Standard Webhooks specification."
      />
      <form className="space-y-4" onSubmit={submit} noValidate>
        <TextField
          label="Endpoint URL"
          type="url"
          value={url}
          error={errors.url}
          placeholder="https://example.com/webhooks/atrium"
          onChange={(event) => setUrl(event.target.value)}
        />
        <TextField
          label="Description (optional)"
          value={description}
          error={errors.description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset aria-describedby={errors.events ? "webhook-events-error" : undefined}>
          <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Events</legend>
          <div className="mt-2 space-y-2">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-start gap-3 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-brand-600"
                  checked={events.includes(type)}
                  onChange={(event) =>
                    // In the list's order, whatever the order they were ticked in: the endpoint shows them so.
                    setEvents(
                      WEBHOOK_EVENT_TYPES.filter((each) =>
                        each === type ? event.target.checked : events.includes(each),
                      ),
                    )
                  }
                />
                <span>
                  {EVENT_LABELS[type]} <code className="text-xs text-zinc-500 dark:text-zinc-400">{type}</code>
                </span>
              </label>
            ))}
          </div>
          {errors.events ? (
            <p id="webhook-events-error" className="mt-1 text-xs font-medium text-red-600 dark:text-red-400">
              {errors.events}
            </p>
          ) : null}
        </fieldset>
        {create.isError ? <Alert tone="error">{errorMessage(create.error)}</Alert> : null}
        <Button type="submit" isLoading={create.isPending}>
          Add endpoint
        </Button>
      </form>
    </Card>
  );
}

function EndpointRow({
  organizationId,
  endpoint,
  onRemove,
}: {
  organizationId: string;
  endpoint: WebhookEndpoint;
  onRemove: () => void;
}) {
  const update = useUpdateWebhook(organizationId);
  const reveal = useRevealSecret(organizationId);
  const rotate = useRotateSecret(organizationId);
  const test = useSendTestEvent(organizationId);
  const [showLog, setShowLog] = useState(false);
  const secret = rotate.data?.secret ?? reveal.data?.secret;
  const failed = [update, reveal, rotate, test].find((mutation) => mutation.isError);

  return (
    <li className="space-y-3 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 basis-64">
          <h3 className="font-medium break-all">{endpoint.url}</h3>
          {endpoint.description ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{endpoint.description}</p>
          ) : null}
        </div>
        {endpoint.enabled ? (
          <Badge tone="success">Enabled</Badge>
        ) : (
          <Badge tone="warning">{endpoint.disabledReason ? DISABLED_REASONS[endpoint.disabledReason] : "Off"}</Badge>
        )}
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">Events: {endpoint.events.join(", ")}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="secondary"
          isLoading={update.isPending}
          onClick={() => update.mutate({ webhookId: endpoint.id, json: { enabled: !endpoint.enabled } })}
        >
          {endpoint.enabled ? "Turn off" : "Turn on"}
        </Button>
        <Button size="sm" variant="secondary" isLoading={test.isPending} onClick={() => test.mutate(endpoint.id)}>
          Send test event
        </Button>
        <Button size="sm" variant="secondary" isLoading={reveal.isPending} onClick={() => reveal.mutate(endpoint.id)}>
          Reveal secret
        </Button>
        <Button size="sm" variant="secondary" isLoading={rotate.isPending} onClick={() => rotate.mutate(endpoint.id)}>
          Rotate secret
        </Button>
        <Button size="sm" variant="secondary" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? "Hide deliveries" : "Show deliveries"}
        </Button>
        <Button size="sm" variant="danger" onClick={onRemove}>
          Remove
        </Button>
      </div>
      {failed ? <Alert tone="error">{errorMessage(failed.error)}</Alert> : null}
      {secret ? <CopyField label="Signing secret" value={secret} /> : null}
      {showLog ? <DeliveryLog organizationId={organizationId} webhookId={endpoint.id} /> : null}
    </li>
  );
}

/** How long the server keeps finished deliveries (WEBHOOK_RETENTION_DAYS), once /api/meta has answered. */
function RetentionHint() {
  const days = useAppMeta().data?.webhooks.deliveryRetentionDays;
  if (days === undefined) return null;
  return (
    <p className="text-sm text-zinc-500 dark:text-zinc-400">
      Deliveries are kept for {days === 1 ? "1 day" : `${days} days`} after they succeed or are given up.
    </p>
  );
}

function DeliveryLog({ organizationId, webhookId }: { organizationId: string; webhookId: string }) {
  const deliveries = useWebhookDeliveries(organizationId, webhookId);
  const redeliver = useRedeliver(organizationId);
  if (deliveries.isPending) return <LoadingBlock label="Loading deliveries…" />;
  if (deliveries.isError) return <Alert tone="error">{errorMessage(deliveries.error)}</Alert>;
  if (deliveries.data.length === 0)
    return (
      <>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No deliveries yet.</p>
        <RetentionHint />
      </>
    );
  return (
    <>
      <RetentionHint />
      <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800" aria-label="Deliveries">
        {deliveries.data.map((attempt) => (
          <li key={attempt.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <Badge tone={attempt.statusCode !== null && attempt.statusCode < 300 ? "success" : "danger"}>
              {attempt.statusCode ?? "No answer"}
            </Badge>
            <code>{attempt.eventType}</code>
            <span className="text-zinc-600 dark:text-zinc-400">
              <time dateTime={attempt.attemptedAt}>{formatDateTime(attempt.attemptedAt)}</time> · attempt{" "}
              {attempt.attempt} · {attempt.durationMs} ms
            </span>
            <span className="min-w-0 flex-1 truncate text-zinc-500 dark:text-zinc-400">
              {attempt.error ?? attempt.responseExcerpt}
            </span>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => redeliver.mutate({ webhookId, deliveryId: attempt.deliveryId })}
            >
              Redeliver
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}
