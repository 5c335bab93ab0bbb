import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

/**
 * Validates sandbox responses and webhook payloads against the provider's OpenAPI 2026-10 document.
 * The whole document is one schema (`$id: "polar"`), so `$ref`s and JSON pointers into paths resolve.
 */
type OpenApiDocument = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
  webhooks: Record<string, unknown>;
};

const document = JSON.parse(
  readFileSync(new URL("../openapi/polar-openapi-2026-10.json", import.meta.url), "utf8"),
) as OpenApiDocument;
relaxDiscountUnions(document);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("uuid4", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i);
ajv.addFormat("ipvanyaddress", true);
ajv.addFormat("color", true);
ajv.addSchema({ ...document, $id: "polar" });

/**
 * The document's discount unions cannot tell a repeating discount apart: the once/forever variants
 * accept any `duration` and allow extra keys, so every `repeating` discount (the provider's own
 * included) matches two branches and fails `oneOf`. Those unions, and only those, are checked as `anyOf`.
 */
function relaxDiscountUnions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(relaxDiscountUnions);
  if (node === null || typeof node !== "object") return;
  const record = node as Record<string, unknown>;
  const branches = record.oneOf;
  if (
    Array.isArray(branches) &&
    branches.every((branch) =>
      /Discount\w*(OnceForever|Repeat)Duration/.test(String((branch as { $ref?: string }).$ref)),
    )
  ) {
    record.anyOf = branches;
    delete record.oneOf;
  }
  Object.values(record).forEach(relaxDiscountUnions);
}

const pointer = (...parts: string[]) =>
  `polar#/${parts.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;

function check(schemaRef: string, value: unknown): string[] {
  const validate = ajv.getSchema(schemaRef);
  if (!validate) return [`no schema at ${schemaRef}`];
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .slice(0, 8)
    .map((error) => `${error.instancePath || "/"} ${error.message ?? ""} ${JSON.stringify(error.params)}`);
}

/** Problems of `value` against `components/schemas/<name>`; empty when it conforms. */
export function schemaErrors(name: string, value: unknown): string[] {
  return check(pointer("components", "schemas", name), value);
}

export function expectSchema(name: string, value: unknown): void {
  const errors = schemaErrors(name, value);
  if (errors.length > 0)
    throw new Error(`Not a valid ${name}:\n${errors.join("\n")}\n${JSON.stringify(value).slice(0, 1500)}`);
}

/** Checks a webhook body against `webhooks[type].post.requestBody` (Webhook<Name>Payload). */
export function webhookPayloadErrors(payload: { type: string }): string[] {
  if (!(payload.type in document.webhooks)) return [`unknown webhook type ${payload.type}`];
  return check(
    pointer("webhooks", payload.type, "post", "requestBody", "content", "application/json", "schema"),
    payload,
  );
}

const templates = Object.keys(document.paths).map((template) => ({
  template,
  params: (template.match(/\{/g) ?? []).length,
  regex: new RegExp(`^${template.replace(/\/$/, "").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
}));

/**
 * Problems of one API response against the document: the path and status must be declared for the
 * method, and a JSON body must match the declared schema.
 */
export function responseErrors(method: string, path: string, status: number, body: unknown): string[] {
  const match = templates.filter((candidate) => candidate.regex.test(path)).sort((a, b) => a.params - b.params)[0];
  if (!match) return [`${method} ${path}: path is not in the document`];
  const operation = document.paths[match.template]?.[method.toLowerCase()];
  if (!operation) return [`${method} ${match.template}: method is not in the document`];
  // The document declares no 401 anywhere, yet the provider answers it to a bad token.
  if (status === 401) return isNamedError(body) ? [] : [`${method} ${match.template} 401: not an {error, detail} body`];
  const response = operation.responses[String(status)];
  if (!response)
    return [
      `${method} ${match.template}: status ${status} is not declared (${Object.keys(operation.responses).join(", ")})`,
    ];
  if (!response.content?.["application/json"])
    return body === undefined ? [] : [`${method} ${match.template} ${status}: declared without a body`];
  return check(
    pointer(
      "paths",
      match.template,
      method.toLowerCase(),
      "responses",
      String(status),
      "content",
      "application/json",
      "schema",
    ),
    body,
  ).map((error) => `${method} ${match.template} ${status}: ${error}`);
}

const isNamedError = (body: unknown) =>
  typeof body === "object" &&
  body !== null &&
  typeof (body as { error?: unknown }).error === "string" &&
  typeof (body as { detail?: unknown }).detail === "string";
