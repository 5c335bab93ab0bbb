import { useState, type FormEvent } from "react";
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
import { TextField } from "../../../../components/ui/text-field";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { errorMessage } from "../../../../lib/api-error";
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
 * secret (shown once at registration, then on "Reveal"; rotated with a day of overlap), a test event, and each
 * endpoint's delivery log with redelivery. Owners and admins only: the tab is not shown to members.
 */
export function WebhooksPage() {
  const { organization, can } = useOrganizationContext();
  const mayManage = can({ organization: ["update"] });
  const webhooks = useWebhooks(organization.id, mayManage);

  if (!mayManage)
    return (
      <Card>
        <CardHeader title="Webhooks" />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Only owners and admins can manage webhooks.</p>
      </Card>
    );
  if (webhooks.isPending) return <LoadingBlock label="Loading webhooks…" />;
  if (webhooks.isError) return <Alert tone="error">{errorMessage(webhooks.error)}</Alert>;
  return (
    <div className="space-y-6">
      <NewEndpoint organizationId={organization.id} />
      {webhooks.data.map((endpoint) => (
        <EndpointCard key={endpoint.id} organizationId={organization.id} endpoint={endpoint} />
      ))}
    </div>
  );
}

function NewEndpoint({ organizationId }: { organizationId: string }) {
  const create = useCreateWebhook(organizationId);
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createWebhookSchema.safeParse({ url, events, description: description || undefined });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? "Check the form");
    setProblem(null);
    create.mutate(parsed.data, {
      onSuccess: () => {
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
        <TextField label="Endpoint URL" value={url} onChange={(event) => setUrl(event.target.value)} />
        <TextField
          label="Description (optional)"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset>
          <legend className="text-sm font-medium">Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="mt-1 flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(event) =>
                  setEvents(event.target.checked ? [...events, type] : events.filter((chosen) => chosen !== type))
                }
              />
              {EVENT_LABELS[type]} <code className="text-xs text-zinc-500">{type}</code>
            </label>
          ))}
        </fieldset>
        {problem ? <Alert tone="error">{problem}</Alert> : null}
        {create.isError ? <Alert tone="error">{errorMessage(create.error)}</Alert> : null}
        <Button type="submit" isLoading={create.isPending}>
          Add endpoint
        </Button>
      </form>
      {create.data ? (
        <div className="mt-4">
          <CopyField
            label="Signing secret"
            value={create.data.secret}
            description="Verify each delivery's signature with it (docs/webhooks.md)."
          />
        </div>
      ) : null}
    </Card>
  );
}

function EndpointCard({ organizationId, endpoint }: { organizationId: string; endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhook(organizationId);
  const remove = useDeleteWebhook(organizationId);
  const reveal = useRevealSecret(organizationId);
  const rotate = useRotateSecret(organizationId);
  const test = useSendTestEvent(organizationId);
  const [showLog, setShowLog] = useState(false);
  const secret = rotate.data?.secret ?? reveal.data?.secret;
  const failed = [update, remove, reveal, rotate, test].find((mutation) => mutation.isError);

  return (
    <Card>
      <CardHeader
        title={endpoint.url}
        description={endpoint.description ?? undefined}
        action={
          endpoint.enabled ? (
            <Badge tone="success">Enabled</Badge>
          ) : (
            <Badge tone="warning">{endpoint.disabledReason ? DISABLED_REASONS[endpoint.disabledReason] : "Off"}</Badge>
          )
        }
      />
      <p className="text-sm">Events: {endpoint.events.join(", ")}</p>
      <div className="mt-4 flex flex-wrap gap-2">
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
        <Button size="sm" variant="secondary" onClick={() => setShowLog(!showLog)}>
          {showLog ? "Hide deliveries" : "Show deliveries"}
        </Button>
        <Button size="sm" variant="danger" isLoading={remove.isPending} onClick={() => remove.mutate(endpoint.id)}>
          Remove
        </Button>
      </div>
      {failed ? <Alert tone="error">{errorMessage(failed.error)}</Alert> : null}
      {secret ? (
        <div className="mt-4">
          <CopyField label="Signing secret" value={secret} />
        </div>
      ) : null}
      {showLog ? <DeliveryLog organizationId={organizationId} webhookId={endpoint.id} /> : null}
    </Card>
  );
}

/** How long the server keeps finished deliveries (WEBHOOK_RETENTION_DAYS), once /api/meta has answered. */
function RetentionHint() {
  const days = useAppMeta().data?.webhooks.deliveryRetentionDays;
  if (days === undefined) return null;
  return (
    <p className="mt-4 text-sm text-zinc-500">
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
        <p className="mt-4 text-sm text-zinc-500">No deliveries yet.</p>
        <RetentionHint />
      </>
    );
  return (
    <>
      <RetentionHint />
      <ul className="mt-2 divide-y divide-zinc-200 text-sm dark:divide-zinc-800" aria-label="Deliveries">
        {deliveries.data.map((attempt) => (
          <li key={attempt.id} className="flex flex-wrap items-center gap-3 py-2">
            <Badge tone={attempt.statusCode !== null && attempt.statusCode < 300 ? "success" : "danger"}>
              {attempt.statusCode ?? "No answer"}
            </Badge>
            <code>{attempt.eventType}</code>
            <span>
              attempt {attempt.attempt} · {attempt.durationMs} ms
            </span>
            <span className="min-w-0 flex-1 truncate text-zinc-500">{attempt.error ?? attempt.responseExcerpt}</span>
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
