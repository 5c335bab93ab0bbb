import {
  oidcConnectionSchema,
  samlConnectionSchema,
  SAML_METADATA_MAX_LENGTH,
  type SamlSource,
} from "../../../../common/sso.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Button } from "../../../components/ui/button";
import { ChoiceField } from "../../../components/ui/choice-field";
import { TextAreaField, TextField } from "../../../components/ui/text-field";
import { ApiError } from "../../../lib/api-error";
import { useZodForm } from "../../../lib/form";
import { useRegisterConnection } from "../api/sso";

const DOMAIN_DESCRIPTION =
  "People whose e-mail address ends in @ this domain sign in through this connection. You prove the domain is yours next.";

/** Where the plugin's refusals of a connection go: the domain's on the domain, the provider's on its fields. */
const registerServerErrors = {
  SSO_DOMAIN_TAKEN: "domain",
  DOMAIN_TAKEN: "domain",
  INVALID_DOMAIN: "domain",
} as const;

type Saved = (providerId: string) => void;

/** An OIDC identity provider's values: its issuer (the rest is discovered from it) and the client made there. */
export function OidcConnectionForm({
  organizationId,
  providerId,
  onSaved,
}: {
  organizationId: string;
  providerId: string;
  onSaved: Saved;
}) {
  const register = useRegisterConnection(organizationId);
  const form = useZodForm(oidcConnectionSchema, {
    defaultValues: { domain: "", issuer: "", clientId: "", clientSecret: "" },
    serverErrors: { ...registerServerErrors, "DISCOVERY_*": "issuer", ISSUER_MISMATCH: "issuer" },
  });
  const onSubmit = form.submit(async (values) => {
    await register.mutateAsync({ protocol: "oidc", providerId, ...values });
    onSaved(providerId);
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormErrorAlert message={form.formError} />
      <TextField
        label="Issuer URL"
        type="url"
        placeholder="https://login.example.com"
        description="The identity provider's address; its other endpoints are read from its discovery document."
        {...form.field("issuer")}
      />
      <TextField label="Client ID" autoComplete="off" {...form.field("clientId")} />
      <TextField label="Client secret" type="password" autoComplete="off" {...form.field("clientSecret")} />
      <TextField
        label="E-mail domain"
        placeholder="example.com"
        autoComplete="off"
        description={DOMAIN_DESCRIPTION}
        {...form.field("domain")}
      />
      <div className="flex justify-end">
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Saving…" : "Save connection"}
        </Button>
      </div>
    </form>
  );
}

const SAML_SOURCE_CHOICES = [
  {
    value: "metadata-xml",
    label: "Metadata file",
    description: "Upload or paste the XML your identity provider gives.",
  },
  { value: "metadata-url", label: "Metadata URL", description: "The address where your identity provider serves it." },
  { value: "manual", label: "Enter the values", description: "Its entity ID, sign-on URL and signing certificate." },
] as const satisfies ReadonlyArray<{ value: SamlSource; label: string; description: string }>;

/** A SAML identity provider's values: its metadata (a file, pasted, or its URL), or its values one by one. */
export function SamlConnectionForm({
  organizationId,
  providerId,
  onSaved,
}: {
  organizationId: string;
  providerId: string;
  onSaved: Saved;
}) {
  const register = useRegisterConnection(organizationId);
  const form = useZodForm(samlConnectionSchema, {
    defaultValues: {
      source: "metadata-xml",
      domain: "",
      metadataXml: "",
      metadataUrl: "",
      entityId: "",
      entryPoint: "",
      certificate: "",
    },
    serverErrors: {
      ...registerServerErrors,
      INVALID_SAML_METADATA: "metadataXml",
      SAML_METADATA_URL_UNREADABLE: "metadataUrl",
      SSO_SAML_METADATA_UNREADABLE: "metadataUrl",
    },
  });
  const source = form.watch("source");
  const onSubmit = form.submit(async (values) => {
    try {
      await register.mutateAsync({ protocol: "saml", providerId, ...values });
    } catch (error) {
      // Metadata read from its URL: what is wrong with it belongs to the URL's field.
      if (values.source === "metadata-url" && error instanceof ApiError && error.code === "INVALID_SAML_METADATA")
        return form.setServerError(error, "metadataUrl");
      throw error;
    }
    onSaved(providerId);
  });

  async function readMetadataFile(file: File | undefined) {
    if (!file) return;
    if (file.size > SAML_METADATA_MAX_LENGTH) {
      form.setServerError("The metadata file is larger than 100 KB", "metadataXml");
      return;
    }
    form.setValue("metadataXml", await file.text(), { shouldValidate: true });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormErrorAlert message={form.formError} />
      <ChoiceField
        legend="How do you have your identity provider's values?"
        choices={SAML_SOURCE_CHOICES}
        {...form.field("source")}
      />
      {source === "metadata-xml" ? (
        <>
          <div className="space-y-1.5">
            <label htmlFor="saml-metadata-file" className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
              Upload a metadata file
            </label>
            <input
              id="saml-metadata-file"
              type="file"
              accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
              onChange={(event) => void readMetadataFile(event.currentTarget.files?.[0])}
              className="block w-full text-sm text-zinc-700 file:mr-3 file:rounded-lg file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium dark:text-zinc-300 dark:file:border-zinc-700 dark:file:bg-zinc-900 dark:file:text-zinc-100"
            />
          </div>
          <TextAreaField
            label="Metadata XML"
            rows={6}
            placeholder="<EntityDescriptor …>"
            description="Uploading a file fills this in; you may also paste the XML here."
            {...form.field("metadataXml")}
          />
        </>
      ) : source === "metadata-url" ? (
        <TextField
          label="Metadata URL"
          type="url"
          placeholder="https://idp.example.com/metadata"
          {...form.field("metadataUrl")}
        />
      ) : (
        <>
          <TextField label="Identity provider entity ID" autoComplete="off" {...form.field("entityId")} />
          <TextField
            label="Single sign-on URL"
            type="url"
            placeholder="https://idp.example.com/sso"
            {...form.field("entryPoint")}
          />
          <TextAreaField
            label="Signing certificate"
            rows={6}
            placeholder="-----BEGIN CERTIFICATE-----"
            {...form.field("certificate")}
          />
        </>
      )}
      <TextField
        label="E-mail domain"
        placeholder="example.com"
        autoComplete="off"
        description={DOMAIN_DESCRIPTION}
        {...form.field("domain")}
      />
      <div className="flex justify-end">
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Saving…" : "Save connection"}
        </Button>
      </div>
    </form>
  );
}
