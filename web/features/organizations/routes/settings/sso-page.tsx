import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import type { SsoProtocol } from "../../../../../common/sso.schemas";
import { Alert } from "../../../../components/ui/alert";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { CopyField } from "../../../../components/ui/copy-field";
import { ConfirmDialog } from "../../../../components/ui/dialog";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { errorMessage } from "../../../../lib/api-error";
import {
  newProviderId,
  serviceProviderValues,
  useDeleteConnection,
  useOrganizationSso,
  useRequestDomainRecord,
  useSetSsoPolicy,
  useTestConnection,
  useVerifyDomain,
  type SsoServiceProviderValues,
  type SsoConnection,
} from "../../api/sso";
import { OidcConnectionForm, SamlConnectionForm } from "../../components/sso-connection-form";
import { useOrganizationContext } from "../../components/organization-context";

const PROTOCOL_NAMES: Record<SsoProtocol, string> = { oidc: "OpenID Connect", saml: "SAML 2.0" };

/** A connection that signed someone in since it was registered or last changed: the server recorded its test. */
const isTested = (connection: SsoConnection) => connection.firstSignInAt !== null;

/**
 * `test` and `error` are what a test sign-in comes back with: `?test=<providerId>`, and the refusal's code when it
 * failed (better-auth's at an OIDC callback; the app's at the SAML ACS, common/sign-in-errors.ts).
 */
export type SsoPageSearch = { test?: string; error?: string };

/**
 * Single sign-on for an organization: its connections to identity providers (OIDC or SAML), set up step by step
 * (the values to give the identity provider, its values, the domain proven by a DNS TXT record, a test sign-in),
 * and the policy that members must sign in through one. Owners and admins only: the tab is not shown to members.
 */
export function SsoPage({ search }: { search: SsoPageSearch }) {
  const { organization, can } = useOrganizationContext();
  const mayManage = can({ organization: ["update"] });
  const sso = useOrganizationSso(organization.id, mayManage);
  const [setup, setSetup] = useState<{ providerId?: string } | null>(null);

  if (!mayManage)
    return (
      <Card>
        <CardHeader title="Single sign-on" />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Only owners and admins can set up single sign-on.</p>
      </Card>
    );
  if (sso.isPending) return <LoadingBlock label="Loading single sign-on…" />;
  if (sso.isError)
    return (
      <Alert tone="error" title="Single sign-on could not load">
        <p>{errorMessage(sso.error)}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void sso.refetch()}>
          Try again
        </Button>
      </Alert>
    );

  const { providers: connections, requireSso, allowDomainJoin } = sso.data;
  const inSetup = setup?.providerId ? connections.find((c) => c.providerId === setup.providerId) : undefined;
  const testedConnection = connections.find((c) => c.providerId === search.test);

  return (
    <div className="space-y-6">
      {search.test ? <TestResult connection={testedConnection} error={search.error} /> : null}
      <Card>
        <CardHeader
          title="Single sign-on"
          description={`People with an e-mail address at ${organization.name}'s domain sign in through your identity provider (Okta, Entra ID, Google Workspace…), and join ${organization.name} as members.`}
          action={setup === null ? <Button onClick={() => setSetup({})}>Add a connection</Button> : null}
        />
        {connections.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            No connection yet. Add one to let your people sign in with their work account.
          </p>
        ) : (
          <ConnectionList connections={connections} onContinue={(providerId) => setSetup({ providerId })} />
        )}
      </Card>
      {setup !== null ? (
        <ConnectionSetup
          key={setup.providerId ?? "new"}
          connection={inSetup}
          takenIds={connections.map((c) => c.providerId)}
          isTested={inSetup ? isTested(inSetup) : false}
          onSaved={(providerId) => setSetup({ providerId })}
          onClose={() => setSetup(null)}
        />
      ) : null}
      <RequireSso requireSso={requireSso} canTurnOn={connections.some((c) => c.domainVerified && isTested(c))} />
      <AllowDomainJoin
        allowDomainJoin={allowDomainJoin}
        domains={connections.filter((c) => c.domainVerified).map((c) => c.domain)}
      />
    </div>
  );
}

function TestResult({ connection, error }: { connection: SsoConnection | undefined; error?: string }) {
  if (error)
    return (
      <Alert tone="error" title="The test sign-in did not finish">
        {Object.hasOwn(TEST_ERRORS, error)
          ? TEST_ERRORS[error]
          : "The identity provider or Atrium refused the sign-in. Check the values on both sides, then test again."}
      </Alert>
    );
  return (
    <Alert tone="success" title="The connection works">
      You signed in through {connection ? `the identity provider of ${connection.domain}` : "your identity provider"}.
      You may now require single sign-on.
    </Alert>
  );
}

/**
 * What a test sign-in comes back with, in words an administrator can act on: better-auth's codes at an OIDC callback,
 * and the app's refusals of a SAML response (the server sends a refused test back here, not to the sign-in error
 * page). Any other code reads generically, and the page never shows the address's text.
 */
const TEST_ERRORS: Record<string, string> = {
  access_denied: "You cancelled at the identity provider. Test again when you are ready.",
  invalid_provider: "The identity provider's values are not right. Check them, delete the connection and add it again.",
  email_doesnt_match: "The identity provider signed you in with an e-mail address outside the connection's domain.",
  signup_disabled: "The identity provider's account has no Atrium account, and new ones may not be created this way.",
  SSO_SAML_RESPONSE_REFUSED:
    "Your identity provider's answer was refused: its signature, its validity or the addresses it names did not " +
    "match this connection. Check the certificate, the ACS URL and the SP entity ID on both sides, then test again.",
  SSO_EMAIL_OUTSIDE_DOMAIN:
    "The identity provider signed you in with an e-mail address outside the connection's domain. Sign in there " +
    "with your work account, then test again.",
  SSO_DOMAIN_NOT_VERIFIED: "The connection's domain is not verified. Verify it, then test again.",
  PLAN_LIMIT_REACHED:
    "Your plan has no free seat for the account the identity provider signed in. Add seats, or test with an " +
    "account that is already a member.",
  banned: "The identity provider signed in an account that is banned from Atrium.",
  BANNED_USER: "The identity provider signed in an account that is banned from Atrium.",
};

function ConnectionList({
  connections,
  onContinue,
}: {
  connections: SsoConnection[];
  onContinue: (providerId: string) => void;
}) {
  const { organization } = useOrganizationContext();
  const deleteConnection = useDeleteConnection(organization.id);
  const [deleting, setDeleting] = useState<SsoConnection | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <h3 ref={heading} id="sso-connections" tabIndex={-1} className="sr-only">
        Connections
      </h3>
      <ul
        aria-labelledby="sso-connections"
        className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {connections.map((connection) => (
          <li key={connection.providerId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              <p className="font-medium break-all">{connection.domain}</p>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-zinc-500 dark:text-zinc-400">
                <span>{PROTOCOL_NAMES[connection.type]}</span>
                <DomainBadge isVerified={connection.domainVerified} />
                {isTested(connection) ? <Badge tone="info">Tested</Badge> : null}
              </p>
            </div>
            <div className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                aria-label={`${connection.domainVerified ? "Details of" : "Continue setup of"} ${connection.domain}`}
                onClick={() => onContinue(connection.providerId)}
              >
                {connection.domainVerified ? "Details" : "Continue setup"}
              </Button>
              <Button
                variant="danger"
                size="sm"
                aria-label={`Delete the connection of ${connection.domain}`}
                onClick={() => setDeleting(connection)}
              >
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title="Delete this connection?"
        description={
          deleting
            ? `People at ${deleting.domain} can no longer sign in through your identity provider. Their Atrium accounts stay; those without a password set one with "Forgot password?".`
            : ""
        }
        confirmLabel="Delete connection"
        fallbackFocus={heading}
        onConfirm={() => deleteConnection.mutateAsync(deleting?.providerId ?? "")}
      />
    </>
  );
}

function DomainBadge({ isVerified }: { isVerified: boolean }) {
  return isVerified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Pending verification</Badge>;
}

/** One step of the setup: its number, title, and what it asks; a done step says so. */
function Step({
  number,
  title,
  isDone,
  children,
}: {
  number: number;
  title: string;
  isDone?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <li aria-labelledby={id} className="border-t border-zinc-200 pt-5 first:border-t-0 first:pt-0 dark:border-zinc-800">
      <h3 id={id} className="flex items-center gap-3 text-sm font-semibold">
        <span
          aria-hidden="true"
          className={`flex size-6 shrink-0 items-center justify-center rounded-full text-xs ${isDone ? "bg-emerald-600 text-white" : "bg-brand-600 text-white"}`}
        >
          {isDone ? "✓" : number}
        </span>
        <span>
          <span className="sr-only">{`Step ${number}${isDone ? ", done" : ""}: `}</span>
          {title}
        </span>
      </h3>
      <div className="mt-3 space-y-4 sm:pl-9">{children}</div>
    </li>
  );
}

function ServiceProviderFields({ protocol, values }: { protocol: SsoProtocol; values: SsoServiceProviderValues }) {
  if (protocol === "oidc")
    return (
      <CopyField
        label="Redirect URI"
        value={values.oidcRedirectUri}
        description="Add it to the application (client) you create for Atrium at your identity provider."
      />
    );
  return (
    <>
      <CopyField
        label="ACS URL"
        value={values.acsUrl}
        description="The Assertion Consumer Service (reply) URL, where your identity provider posts its answer."
      />
      <CopyField
        label="Entity ID"
        value={values.entityId}
        description="Atrium's identifier (audience) as a service provider."
      />
      <CopyField
        label="SP metadata URL"
        value={values.metadataUrl}
        description="Or give your identity provider this address: it reads both values from it."
      />
    </>
  );
}

/**
 * The setup of one connection, step by step. A new one starts at the protocol; a saved one (`connection`) shows
 * its values again and goes on with its domain and the test.
 */
function ConnectionSetup({
  connection,
  takenIds,
  isTested,
  onSaved,
  onClose,
}: {
  connection: SsoConnection | undefined;
  takenIds: string[];
  isTested: boolean;
  onSaved: (providerId: string) => void;
  onClose: () => void;
}) {
  const { organization } = useOrganizationContext();
  const [protocol, setProtocol] = useState<SsoProtocol | null>(connection?.type ?? null);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  const providerId = connection?.providerId ?? (protocol ? newProviderId(organization.slug, protocol, takenIds) : null);
  const spValues = connection?.serviceProvider ?? (providerId ? serviceProviderValues(providerId) : null);

  return (
    <Card>
      <CardHeader
        titleRef={title}
        title={connection ? `Connection for ${connection.domain}` : "Add a connection"}
        action={
          <Button variant="ghost" size="sm" onClick={onClose}>
            {connection?.domainVerified ? "Close" : "Cancel"}
          </Button>
        }
      />
      <ol className="space-y-5">
        <Step number={1} title="Choose the protocol" isDone={Boolean(connection)}>
          {connection ? (
            <p className="text-sm">{PROTOCOL_NAMES[connection.type]}</p>
          ) : (
            <ProtocolChoice value={protocol} onChange={setProtocol} />
          )}
        </Step>
        {spValues && protocol ? (
          <Step number={2} title="Give these values to your identity provider" isDone={Boolean(connection)}>
            <ServiceProviderFields protocol={protocol} values={spValues} />
          </Step>
        ) : null}
        {protocol && providerId ? (
          <Step number={3} title="Enter your identity provider's values" isDone={Boolean(connection)}>
            {connection ? (
              <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">Saved. Issuer: {connection.issuer}</p>
            ) : protocol === "oidc" ? (
              <OidcConnectionForm organizationId={organization.id} providerId={providerId} onSaved={onSaved} />
            ) : (
              <SamlConnectionForm organizationId={organization.id} providerId={providerId} onSaved={onSaved} />
            )}
          </Step>
        ) : null}
        {connection ? (
          <>
            <Step number={4} title="Verify your domain" isDone={connection.domainVerified}>
              <DomainVerification connection={connection} />
            </Step>
            <Step number={5} title="Test the connection" isDone={isTested}>
              <TestConnection connection={connection} isTested={isTested} />
            </Step>
          </>
        ) : null}
      </ol>
    </Card>
  );
}

function ProtocolChoice({ value, onChange }: { value: SsoProtocol | null; onChange: (protocol: SsoProtocol) => void }) {
  const choices: Array<{ value: SsoProtocol; label: string; description: string }> = [
    {
      value: "oidc",
      label: "OpenID Connect (OIDC)",
      description: "Okta, Entra ID, Google Workspace, Auth0, Keycloak…",
    },
    {
      value: "saml",
      label: "SAML 2.0",
      description: "Identity providers that speak SAML: ADFS, Okta, Entra ID, OneLogin…",
    },
  ];
  return (
    <fieldset>
      <legend className="sr-only">Protocol</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {choices.map((choice) => (
          <label
            key={choice.value}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-zinc-200 px-3 py-2.5 has-checked:border-brand-600 has-checked:bg-brand-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-500 dark:border-zinc-800 dark:has-checked:border-brand-400 dark:has-checked:bg-brand-700/20"
          >
            <input
              type="radio"
              name="sso-protocol"
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              aria-describedby={`sso-protocol-${choice.value}`}
              className="mt-0.5 size-4 shrink-0 accent-brand-600 focus-visible:outline-none"
            />
            <span className="min-w-0">
              <span className="block text-sm font-medium">{choice.label}</span>
              <span
                id={`sso-protocol-${choice.value}`}
                className="mt-0.5 block text-xs text-zinc-500 dark:text-zinc-400"
              >
                {choice.description}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The TXT record to publish, the domain's state, and a button to look for the record now. */
function DomainVerification({ connection }: { connection: SsoConnection }) {
  const { organization } = useOrganizationContext();
  const verify = useVerifyDomain(organization.id);
  const requestRecord = useRequestDomainRecord(organization.id);
  if (connection.domainVerified)
    return (
      <p className="flex items-center gap-2 text-sm">
        <DomainBadge isVerified /> <span className="break-all">{connection.domain} is yours.</span>
      </p>
    );
  return (
    <>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Publish this TXT record in the DNS of <span className="font-medium break-all">{connection.domain}</span>, then
        verify. DNS changes can take a few minutes to show.
      </p>
      <p className="flex items-center gap-2 text-sm">
        Status: <DomainBadge isVerified={false} />
      </p>
      {connection.domainRecord ? (
        <>
          <CopyField label="TXT record name" value={connection.domainRecord.name} />
          <CopyField label="TXT record value" value={connection.domainRecord.value} />
        </>
      ) : (
        <>
          {requestRecord.isError ? <Alert tone="error">{errorMessage(requestRecord.error)}</Alert> : null}
          <Button
            variant="secondary"
            isLoading={requestRecord.isPending}
            onClick={() => requestRecord.mutate(connection.providerId)}
          >
            Show the TXT record
          </Button>
        </>
      )}
      {verify.isError ? <Alert tone="error">{errorMessage(verify.error)}</Alert> : null}
      <Button isLoading={verify.isPending} onClick={() => verify.mutate(connection.providerId)}>
        {verify.isPending ? "Verifying…" : "Verify"}
      </Button>
    </>
  );
}

function TestConnection({ connection, isTested }: { connection: SsoConnection; isTested: boolean }) {
  const { organization } = useOrganizationContext();
  const test = useTestConnection(organization.id);
  if (!connection.domainVerified)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Verify the domain first.</p>;
  return (
    <>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Sign in through your identity provider with your own work account (an e-mail address at {connection.domain}), as
        your people will. You come back here with the result.
      </p>
      {isTested ? (
        <p className="flex items-center gap-2 text-sm">
          <Badge tone="success">Works</Badge> A test sign-in succeeded.
        </p>
      ) : null}
      {test.isError ? <Alert tone="error">{errorMessage(test.error)}</Alert> : null}
      <Button
        variant={isTested ? "secondary" : "primary"}
        isLoading={test.isPending || test.isSuccess}
        onClick={() => test.mutate(connection.providerId)}
      >
        {isTested ? "Test again" : "Test sign-in"}
      </Button>
    </>
  );
}

/**
 * The policy switch: on only after a verified connection signed someone in (else everyone would be locked out). The
 * server refuses it too (SSO_SIGN_IN_TEST_REQUIRED), which the alert words, should the page be out of date.
 */
function RequireSso({ requireSso, canTurnOn }: { requireSso: boolean; canTurnOn: boolean }) {
  const { organization } = useOrganizationContext();
  const setRequireSso = useSetSsoPolicy(organization.id, "requireSso");
  return (
    <Card>
      <CardHeader
        title="Require single sign-on"
        description={`While this is on, members of ${organization.name} whose e-mail is at a verified domain must sign in through your identity provider: their password no longer signs them in. Owners with an authenticator app keep their password (with its code) as a way in if the identity provider fails.`}
      />
      <div className="space-y-4">
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            role="switch"
            className="mt-1 size-4 accent-brand-600"
            checked={requireSso}
            disabled={(!requireSso && !canTurnOn) || setRequireSso.isPending}
            aria-describedby="require-sso-state"
            onChange={(event) => setRequireSso.mutate(event.target.checked)}
          />
          <span>
            <span className="font-medium">Members must sign in with SSO</span>
            <span id="require-sso-state" className="block text-sm text-zinc-500 dark:text-zinc-400">
              {requireSso
                ? "On: members sign in through the identity provider only."
                : "Off: members may also sign in with a password or a passkey."}
            </span>
          </span>
        </label>
        {setRequireSso.isError ? <Alert tone="error">{errorMessage(setRequireSso.error)}</Alert> : null}
        {!requireSso && !canTurnOn ? (
          <Alert tone="info">
            Verify a connection&apos;s domain and test it first: this keeps anyone from being locked out.
          </Alert>
        ) : null}
      </div>
    </Card>
  );
}

/** Joining by verified domain: people with a verified address on one of the domains join without an invitation. */
function AllowDomainJoin({ allowDomainJoin, domains }: { allowDomainJoin: boolean; domains: string[] }) {
  const { organization } = useOrganizationContext();
  const setAllowDomainJoin = useSetSsoPolicy(organization.id, "allowDomainJoin");
  const canTurnOn = domains.length > 0;
  const named = domains.map((domain) => `@${domain}`).join(", ");
  return (
    <Card>
      <CardHeader
        title="Join by verified domain"
        description={`People who sign up with a verified e-mail address at one of your verified domains are offered to join ${organization.name} as members, without an invitation, within your plan's seats.`}
      />
      <div className="space-y-4">
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            role="switch"
            className="mt-1 size-4 accent-brand-600"
            checked={allowDomainJoin}
            disabled={(!allowDomainJoin && !canTurnOn) || setAllowDomainJoin.isPending}
            aria-describedby="domain-join-state"
            onChange={(event) => setAllowDomainJoin.mutate(event.target.checked)}
          />
          <span>
            <span className="font-medium">Let people on verified domains join</span>
            <span id="domain-join-state" className="block text-sm text-zinc-500 dark:text-zinc-400">
              {allowDomainJoin
                ? `On: anyone with a verified ${named} address can join.`
                : "Off: people join by invitation only."}
            </span>
          </span>
        </label>
        {setAllowDomainJoin.isError ? <Alert tone="error">{errorMessage(setAllowDomainJoin.error)}</Alert> : null}
        {!allowDomainJoin && !canTurnOn ? (
          <Alert tone="info">Verify a connection&apos;s domain first: only a domain you proved is offered.</Alert>
        ) : null}
      </div>
    </Card>
  );
}
