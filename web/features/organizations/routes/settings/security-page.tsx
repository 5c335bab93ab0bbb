import { Alert } from "../../../../components/ui/alert";
import { Card, CardHeader } from "../../../../components/ui/card";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { errorMessage } from "../../../../lib/api-error";
import { twoFactorSetupHref } from "../../../../lib/two-factor-required";
import { useOrganizationSecurity, useSetSecurityPolicy } from "../../api/security";
import { useOrganizationContext } from "../../components/organization-context";

/**
 * The organization's security policy: whether every member must have a second factor (an authenticator app or a
 * passkey). Owners and admins switch it; turning it on needs a second factor of their own, so they are offered
 * to set one up first. Members see the policy and what it means for them.
 */
export function SecurityPage() {
  const { organization, can } = useOrganizationContext();
  const security = useOrganizationSecurity(organization.id);
  const setPolicy = useSetSecurityPolicy(organization.id);
  const mayChange = can({ organization: ["update"] });

  if (security.isPending) return <LoadingBlock label="Loading security settings…" />;
  if (security.isError) return <Alert tone="error">{errorMessage(security.error)}</Alert>;
  const { requireTwoFactor, callerHasSecondFactor } = security.data;
  const canTurnOn = callerHasSecondFactor || requireTwoFactor;
  const here = `/organizations/${organization.id}/settings/security`;

  return (
    <Card>
      <CardHeader
        title="Require a second factor"
        description={`While this is on, members of ${organization.name} without a second factor (an authenticator app or a passkey) cannot open the organization until they set one up. They are taken to their account's security settings and back.`}
      />
      <div className="space-y-4">
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            role="switch"
            className="mt-1 size-4 accent-brand-600"
            checked={requireTwoFactor}
            disabled={!mayChange || !canTurnOn || setPolicy.isPending}
            aria-describedby="require-two-factor-state"
            onChange={(event) => setPolicy.mutate(event.target.checked)}
          />
          <span>
            <span className="font-medium">Members must have a second factor</span>
            <span id="require-two-factor-state" className="block text-sm text-zinc-500 dark:text-zinc-400">
              {requireTwoFactor
                ? "On: every member needs a second factor to open this organization."
                : "Off: members may use the organization with a password alone."}
            </span>
          </span>
        </label>
        {setPolicy.isError ? <Alert tone="error">{errorMessage(setPolicy.error)}</Alert> : null}
        {!mayChange ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Only owners and admins can change this.</p>
        ) : !canTurnOn ? (
          <Alert tone="info">
            Set up a second factor for your own account first: requiring one without it would lock you out.{" "}
            <a href={twoFactorSetupHref(here)} className="font-medium underline">
              Set up a second factor
            </a>
          </Alert>
        ) : null}
      </div>
    </Card>
  );
}
