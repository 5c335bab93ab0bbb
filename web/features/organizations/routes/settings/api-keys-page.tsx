import { useRef, useState, type FormEvent } from "react";
import { createApiKeySchema } from "../../../../../common/api-key.schemas";
import { apiKeyScopes, API_KEY_SCOPES, type ApiKeyScope } from "../../../../../common/permissions";
import { Alert } from "../../../../components/ui/alert";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { CopyField } from "../../../../components/ui/copy-field";
import { ConfirmDialog, Dialog } from "../../../../components/ui/dialog";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { SelectField, TextField } from "../../../../components/ui/text-field";
import { errorMessage } from "../../../../lib/api-error";
import { formatDateTime, formatRelative } from "../../../../lib/format";
import {
  useCreateApiKey,
  useOrganizationApiKeys,
  useRevokeApiKey,
  type ApiKeySummary,
  type CreatedApiKey,
} from "../../api/api-keys";
import { useOrganizationContext } from "../../components/organization-context";

const EXPIRY_CHOICES = [
  { value: "", label: "Never" },
  { value: "30", label: "After 30 days" },
  { value: "90", label: "After 90 days" },
  { value: "365", label: "After a year" },
];

/**
 * The organization's API keys (docs/api-keys.md), for its owners and admins: create one with scopes chosen as
 * checkboxes, copy it from the dialog that shows it once, see each key's scopes and last use, revoke one.
 */
export function ApiKeysPage() {
  const { organization, can } = useOrganizationContext();
  const mayManage = can({ organization: ["update"] });
  const keys = useOrganizationApiKeys(organization.id, mayManage);
  const revoke = useRevokeApiKey(organization.id);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const listTitle = useRef<HTMLHeadingElement>(null);

  if (!mayManage)
    return (
      <Card>
        <CardHeader title="API keys" />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Only owners and admins can manage API keys.</p>
      </Card>
    );
  return (
    <div className="space-y-6">
      <CreateApiKeyCard organizationId={organization.id} onCreated={setCreated} />
      <Card>
        <CardHeader
          title="API keys"
          titleRef={listTitle}
          description={`Scripts and services call ${organization.name}'s API with these keys, each within its scopes.`}
        />
        {keys.isPending ? (
          <LoadingBlock label="Loading API keys…" />
        ) : keys.isError ? (
          <Alert tone="error" title="API keys could not load">
            <p>{errorMessage(keys.error)}</p>
            <Button variant="secondary" size="sm" className="mt-3" onClick={() => void keys.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No API keys yet. Create one above.</p>
        ) : (
          <ul aria-label="API keys" className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {keys.data.map((key) => (
              <ApiKeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
            ))}
          </ul>
        )}
      </Card>
      {/* Outside the rows, so that it outlives the revoked key's row and hands focus to the list's title. */}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title={`Revoke ${revoking?.name ?? "this key"}?`}
        description="Every call made with this key is refused from now on. This cannot be undone."
        confirmLabel="Revoke key"
        onConfirm={() => (revoking ? revoke.mutateAsync(revoking) : Promise.resolve())}
        fallbackFocus={listTitle}
      />
      <Dialog
        open={created !== null}
        onOpenChange={(open) => {
          if (!open) setCreated(null);
        }}
        title="Copy your new API key"
        description={
          "This is the only time the key is shown. Store it in your secret manager now: " +
          "if it is lost, revoke it and create another."
        }
      >
        {created ? (
          <div className="space-y-4">
            <CopyField
              label="API key"
              value={created.key}
              description={`${created.name}: ${created.scopes.join(", ")}`}
            />
            <div className="flex justify-end">
              <Button onClick={() => setCreated(null)}>Done</Button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </div>
  );
}

function CreateApiKeyCard({
  organizationId,
  onCreated,
}: {
  organizationId: string;
  onCreated: (key: CreatedApiKey) => void;
}) {
  const create = useCreateApiKey(organizationId);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [expiry, setExpiry] = useState("");
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { name, scopes, ...(expiry ? { expiresInDays: Number(expiry) } : {}) };
    const parsed = createApiKeySchema.safeParse(input);
    if (!parsed.success) {
      const fields = parsed.error.flatten().fieldErrors;
      setErrors({ name: fields.name?.[0], scopes: fields.scopes?.[0] });
      return;
    }
    setErrors({});
    try {
      onCreated(await create.mutateAsync(input));
      setName("");
      setScopes([]);
      setExpiry("");
    } catch {
      // Shown below the form.
    }
  }

  // In the list's order, whatever the order they were ticked in: the key's row shows them so.
  const toggle = (scope: ApiKeyScope, isOn: boolean) =>
    setScopes((current) => API_KEY_SCOPES.filter((each) => (each === scope ? isOn : current.includes(each))));
  return (
    <Card>
      <CardHeader
        title="Create an API key"
        description="Give it a name you will recognise and only the scopes it needs."
      />
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Name"
          value={name}
          maxLength={100}
          error={errors.name}
          onChange={(event) => setName(event.target.value)}
        />
        <fieldset aria-describedby={errors.scopes ? "api-key-scopes-error" : undefined}>
          <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Scopes</legend>
          <div className="mt-2 space-y-2">
            {API_KEY_SCOPES.map((scope) => (
              <label key={scope} className="flex items-start gap-3">
                <input
                  type="checkbox"
                  className="mt-1 size-4 shrink-0 accent-brand-600"
                  checked={scopes.includes(scope)}
                  onChange={(event) => toggle(scope, event.target.checked)}
                />
                <span>
                  <span className="font-mono text-sm">{scope}</span>
                  <span className="block text-sm text-zinc-500 dark:text-zinc-400">
                    {apiKeyScopes[scope].description}
                  </span>
                </span>
              </label>
            ))}
          </div>
          {errors.scopes ? (
            <p id="api-key-scopes-error" className="mt-1 text-xs font-medium text-red-600 dark:text-red-400">
              {errors.scopes}
            </p>
          ) : null}
        </fieldset>
        <SelectField
          label="Expires"
          className="sm:max-w-xs"
          value={expiry}
          onChange={(event) => setExpiry(event.target.value)}
        >
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectField>
        {create.isError ? <Alert tone="error">{errorMessage(create.error)}</Alert> : null}
        <Button type="submit" isLoading={create.isPending}>
          Create API key
        </Button>
      </form>
    </Card>
  );
}

function ApiKeyRow({ apiKey, onRevoke }: { apiKey: ApiKeySummary; onRevoke: () => void }) {
  const hasExpired = apiKey.expiresAt !== null && Date.parse(apiKey.expiresAt) <= Date.now();
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="font-medium">{apiKey.name}</p>
        <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{apiKey.prefix}…</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{apiKey.scopes.join(", ")}</p>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Created {formatDateTime(apiKey.createdAt)} ·{" "}
          {apiKey.expiresAt === null
            ? "Never expires"
            : `${hasExpired ? "Expired" : "Expires"} ${formatDateTime(apiKey.expiresAt)}`}{" "}
          · {apiKey.lastUsedAt ? `Last used ${formatRelative(apiKey.lastUsedAt)}` : "Never used"}
        </p>
      </div>
      <Button variant="danger" size="sm" aria-label={`Revoke ${apiKey.name}`} onClick={onRevoke}>
        Revoke
      </Button>
    </li>
  );
}
