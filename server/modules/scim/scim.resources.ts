import { toIsoString } from "../../db/database";
import type { ScimGroupRow, ScimUserRow } from "./scim.repository";
import { MAX_RESULTS, SCHEMAS } from "./scim.schemas";

/** The SCIM representations (RFC 7643) of what the app keeps, and the discovery documents (RFC 7644 section 4). */

const isTrue = (value: boolean | number) => value === true || value === 1;

export function userResource(row: ScimUserRow, baseUrl: string) {
  const formatted = [row.given_name, row.family_name].filter(Boolean).join(" ");
  return {
    schemas: [SCHEMAS.user],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    name: {
      ...(formatted ? { formatted } : {}),
      ...(row.given_name ? { givenName: row.given_name } : {}),
      ...(row.family_name ? { familyName: row.family_name } : {}),
    },
    ...(row.display_name ? { displayName: row.display_name } : {}),
    emails: [{ value: row.email, type: "work", primary: true }],
    active: isTrue(row.active),
    meta: {
      resourceType: "User",
      created: toIsoString(row.created_at),
      lastModified: toIsoString(row.updated_at),
      location: `${baseUrl}/Users/${row.id}`,
    },
  };
}

export function groupResource(
  row: ScimGroupRow,
  members: Array<{ id: string; display: string }> | undefined,
  baseUrl: string,
) {
  return {
    schemas: [SCHEMAS.group],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    ...(members
      ? {
          members: members.map((member) => ({
            value: member.id,
            display: member.display,
            $ref: `${baseUrl}/Users/${member.id}`,
          })),
        }
      : {}),
    meta: {
      resourceType: "Group",
      created: toIsoString(row.created_at),
      lastModified: toIsoString(row.updated_at),
      location: `${baseUrl}/Groups/${row.id}`,
    },
  };
}

export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return {
    schemas: [SCHEMAS.listResponse],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SCHEMAS.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "A token created in the organization's settings, under Directory sync",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: [SCHEMAS.resourceType],
      id: "User",
      name: "User",
      endpoint: "/Users",
      description: "A member of the organization",
      schema: SCHEMAS.user,
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: [SCHEMAS.resourceType],
      id: "Group",
      name: "Group",
      endpoint: "/Groups",
      description: "A team of the organization",
      schema: SCHEMAS.group,
      meta: { resourceType: "ResourceType", location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "string",
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

export function schemas(baseUrl: string) {
  return [
    {
      schemas: [SCHEMAS.schema],
      id: SCHEMAS.user,
      name: "User",
      description: "A member of the organization",
      attributes: [
        attribute("userName", { required: true, uniqueness: "server" }),
        attribute("externalId", { caseExact: true }),
        attribute("name", {
          type: "complex",
          subAttributes: [
            attribute("formatted", { mutability: "readOnly" }),
            attribute("givenName"),
            attribute("familyName"),
          ],
        }),
        attribute("displayName"),
        attribute("emails", {
          type: "complex",
          multiValued: true,
          subAttributes: [attribute("value"), attribute("type"), attribute("primary", { type: "boolean" })],
        }),
        attribute("active", { type: "boolean" }),
      ],
      meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${SCHEMAS.user}` },
    },
    {
      schemas: [SCHEMAS.schema],
      id: SCHEMAS.group,
      name: "Group",
      description: "A team of the organization",
      attributes: [
        attribute("displayName", { required: true, uniqueness: "server" }),
        attribute("externalId", { caseExact: true }),
        attribute("members", {
          type: "complex",
          multiValued: true,
          subAttributes: [
            attribute("value", { mutability: "immutable" }),
            attribute("display", { mutability: "readOnly" }),
            attribute("$ref", { type: "reference", referenceTypes: ["User"], mutability: "immutable" }),
          ],
        }),
      ],
      meta: { resourceType: "Schema", location: `${baseUrl}/Schemas/${SCHEMAS.group}` },
    },
  ];
}
