import { forbidden, readJson } from "./api-errors";
import { serializeBenefit, serializeGrant } from "./benefits.serializers";
import { createBenefit, findBenefit, updateBenefit } from "./benefits.service";
import type { SandboxContext } from "./context";
import { newRouter, paginate, queryList } from "./http";
import { benefitCreateSchema, benefitUpdateSchema } from "./schemas";

/** Benefits (custom, discord, github_repository, downloadables, license_keys, meter_credit) and their grants. */

export function benefitRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/", (c) => {
    const types = queryList(c, "type");
    const benefits = ctx.store.list(
      "benefit",
      (benefit) => !benefit.is_deleted && (!types || types.includes(benefit.type)),
    );
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
    return c.json(
      serializeBenefit(
        ctx,
        ctx.store.transaction(() => updateBenefit(ctx, benefit, input)),
      ),
    );
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
