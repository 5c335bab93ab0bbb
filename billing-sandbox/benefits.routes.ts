import type { z } from "zod";
import { forbidden, notFound, parseBody, readJson } from "./api-errors";
import { newId, type SandboxContext } from "./context";
import { newRouter, paginate, queryList } from "./http";
import type { BenefitRecord } from "./records";
import { benefitCreateSchema, benefitPropertiesSchemas, benefitUpdateSchema } from "./schemas";
import { serializeBenefit, serializeGrant } from "./serializers";

/** Benefits (custom, discord, github_repository, downloadables, license_keys, meter_credit) and their grants. */

function findBenefit(ctx: SandboxContext, id: string): BenefitRecord {
  const benefit = ctx.store.get("benefit", id);
  if (!benefit || benefit.is_deleted) throw notFound();
  return benefit;
}

export function createBenefit(ctx: SandboxContext, input: z.infer<typeof benefitCreateSchema>): BenefitRecord {
  const properties = parseProperties(input.type, input.properties);
  const benefit = ctx.store.put("benefit", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    type: input.type,
    description: input.description,
    selectable: true,
    deletable: true,
    is_deleted: false,
    metadata: input.metadata,
    visibility: "public",
    visibility_configurable: true,
    properties,
  });
  ctx.webhooks.emit("benefit.created", serializeBenefit(ctx, benefit));
  return benefit;
}

function parseProperties(type: BenefitRecord["type"], properties: unknown): Record<string, unknown> {
  const schema: z.ZodType = benefitPropertiesSchemas[type];
  // Errors point at body.properties, as the provider's do.
  try {
    return parseBody(schema, properties) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof Error && "body" in error) {
      const body = (error as { body: { detail: { loc: unknown[] }[] } }).body;
      for (const issue of body.detail) issue.loc = ["body", "properties", ...issue.loc.slice(1)];
    }
    throw error;
  }
}

export function benefitRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/", (c) => {
    const types = queryList(c, "type");
    const benefits = ctx.store.list("benefit", (benefit) => !benefit.is_deleted && (!types || types.includes(benefit.type)));
    return c.json(paginate(c, benefits, (benefit) => serializeBenefit(ctx, benefit)));
  });

  router.post("/", async (c) => {
    const input = await readJson(c, benefitCreateSchema);
    return c.json(serializeBenefit(ctx, createBenefit(ctx, input)), 201);
  });

  router.get("/:id", (c) => c.json(serializeBenefit(ctx, findBenefit(ctx, c.req.param("id")))));

  router.patch("/:id", async (c) => {
    const benefit = findBenefit(ctx, c.req.param("id"));
    const input = await readJson(c, benefitUpdateSchema);
    const updated = ctx.store.put("benefit", {
      ...benefit,
      description: input.description ?? benefit.description,
      properties: input.properties ? parseProperties(benefit.type, { ...benefit.properties, ...input.properties }) : benefit.properties,
      metadata: input.metadata ?? benefit.metadata,
      modified_at: ctx.clock.iso(),
    });
    ctx.webhooks.emit("benefit.updated", serializeBenefit(ctx, updated));
    return c.json(serializeBenefit(ctx, updated));
  });

  router.delete("/:id", (c) => {
    const benefit = findBenefit(ctx, c.req.param("id"));
    if (!benefit.deletable) throw forbidden("NotPermitted", "This benefit cannot be deleted.");
    ctx.store.put("benefit", { ...benefit, is_deleted: true, modified_at: ctx.clock.iso() });
    return c.body(null, 204);
  });

  router.get("/:id/grants", (c) => {
    const benefit = findBenefit(ctx, c.req.param("id"));
    const customerIds = queryList(c, "customer_id");
    const isGranted = c.req.query("is_granted");
    const grants = ctx.store.list(
      "grant",
      (grant) =>
        grant.benefit_id === benefit.id &&
        (!customerIds || customerIds.includes(grant.customer_id)) &&
        (isGranted === undefined || String(grant.is_granted) === isGranted),
    );
    return c.json(paginate(c, grants, (grant) => serializeGrant(ctx, grant)));
  });

  return router;
}
