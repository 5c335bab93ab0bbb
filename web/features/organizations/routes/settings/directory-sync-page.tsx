import { useRef, useState } from "react";
import { z } from "zod";
import { scimTokenNameSchema, type ScimTokenSecret, type ScimTokenSummary } from "../../../../../common/scim.schemas";
import { FormErrorAlert } from "../../../../components/form-error-alert";
import { Alert } from "../../../../components/ui/alert";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { CopyField } from "../../../../components/ui/copy-field";
import { ConfirmDialog } from "../../../../components/ui/dialog";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { TextField } from "../../../../components/ui/text-field";
import { errorMessage } from "../../../../lib/api-error";
import { useZodForm } from "../../../../lib/form";
import { formatDateTime, formatRelative } from "../../../../lib/format";
import { useCreateScimToken, useOrganizationScim, useRevokeScimToken, useRotateScimToken } from "../../api/scim";
import { useOrganizationContext } from "../../components/organization-context";

const tokenFormSchema = z.object({ providerId: scimTokenNameSchema });

/**
 * Directory sync (SCIM) for an organization: the base URL and tokens to give a directory (Okta, Entra ID), which then
 * adds, updates and removes the organization's members and teams (docs/scim.md). A token's secret is shown once, when
 * it is created or rotated. Owners and admins only: the tab is not shown to members.
 */
export function DirectorySyncPage() {
  const { organization, can } = useOrganizationContext();
  const mayManage = can({ organization: ["update"] });
  const scim = useOrganizationScim(organization.id, mayManage);
  const [secret, setSecret] = useState<ScimTokenSecret | null>(null);

  if (!mayManage)
    return (
      <Card>
        <CardHeader title="Directory sync" />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Only owners and admins can set up directory sync.</p>
      </Card>
    );
  if (scim.isPending) return <LoadingBlock label="Loading directory sync…" />;
  if (scim.isError)
    return (
      <Alert tone="error" title="Directory sync could not load">
        <p>{errorMessage(scim.error)}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void scim.refetch()}>
          Try again
        </Button>
      </Alert>
    );

  const { baseUrl, tokens } = scim.data;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Directory sync"
          description={`Your directory (Okta, Microsoft Entra ID…) adds people to ${organization.name} as members, keeps their profile up to date, and removes them when they leave, with SCIM 2.0. Groups become teams.`}
        />
        <CopyField
          label="SCIM base URL"
          value={baseUrl}
          description="Give this address to your directory, with a token created below."
        />
      </Card>
      {secret ? <NewSecret secret={secret} onDone={() => setSecret(null)} /> : null}
      <Card>
        <CardHeader
          title="Tokens"
          description="Each token is one directory connection; its name shows in the audit log."
        />
        <CreateTokenForm onCreated={setSecret} />
        <TokenList tokens={tokens} onRotated={setSecret} />
      </Card>
    </div>
  );
}

function NewSecret({ secret, onDone }: { secret: ScimTokenSecret; onDone: () => void }) {
  return (
    <Alert tone="success" title={`Token for ${secret.token.name}`}>
      <p className="mb-3">Copy it now and paste it into your directory: it will not be shown again.</p>
      <CopyField label="Token" value={secret.scimToken} />
      <Button variant="secondary" size="sm" className="mt-3" onClick={onDone}>
        I have copied it
      </Button>
    </Alert>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (secret: ScimTokenSecret) => void }) {
  const { organization } = useOrganizationContext();
  const create = useCreateScimToken(organization.id);
  const form = useZodForm(tokenFormSchema, { defaultValues: { providerId: "" } });
  const onSubmit = form.submit(async ({ providerId }) => {
    onCreated(await create.mutateAsync(providerId));
    form.reset();
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mb-6 space-y-3">
      <FormErrorAlert message={form.formError} />
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label="Connection name"
          placeholder="okta"
          autoComplete="off"
          description="The directory this token is for."
          className="min-w-64 flex-1"
          {...form.field("providerId")}
        />
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          Create token
        </Button>
      </div>
    </form>
  );
}

function TokenList({
  tokens,
  onRotated,
}: {
  tokens: ScimTokenSummary[];
  onRotated: (secret: ScimTokenSecret) => void;
}) {
  const { organization } = useOrganizationContext();
  const rotate = useRotateScimToken(organization.id);
  const revoke = useRevokeScimToken(organization.id);
  const [revoking, setRevoking] = useState<ScimTokenSummary | null>(null);
  const [rotating, setRotating] = useState<ScimTokenSummary | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  if (tokens.length === 0)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">No token yet. Create one to connect your directory.</p>
    );
  return (
    <>
      <h3 ref={heading} id="scim-tokens" tabIndex={-1} className="sr-only">
        Tokens
      </h3>
      <ul
        aria-labelledby="scim-tokens"
        className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {tokens.map((token) => (
          <li key={token.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="font-medium break-all">{token.name}</p>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
                <span>Created {formatDateTime(token.createdAt)}</span>
                <span>{token.lastUsedAt ? `Last used ${formatRelative(token.lastUsedAt)}` : "Never used"}</span>
                {token.revokedAt ? <Badge tone="neutral">Revoked</Badge> : null}
              </p>
            </div>
            {token.revokedAt ? null : (
              <div className="flex gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Rotate the token ${token.name}`}
                  onClick={() => setRotating(token)}
                >
                  Rotate
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  aria-label={`Revoke the token ${token.name}`}
                  onClick={() => setRevoking(token)}
                >
                  Revoke
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(open) => !open && setRotating(null)}
        title={`Rotate the token ${rotating?.name ?? ""}?`}
        description="A new token replaces it: the current one stops working at once, until your directory has the new one."
        confirmLabel="Rotate token"
        isDanger={false}
        onConfirm={async () => {
          if (rotating) onRotated(await rotate.mutateAsync(rotating.id));
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={`Revoke the token ${revoking?.name ?? ""}?`}
        description="Your directory can no longer add, change or remove people with it. People it added stay members."
        confirmLabel="Revoke token"
        fallbackFocus={heading}
        onConfirm={async () => {
          if (revoking) await revoke.mutateAsync(revoking.id);
        }}
      />
    </>
  );
}
