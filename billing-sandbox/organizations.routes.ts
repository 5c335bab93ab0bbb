import { notFound, readJson } from "./api-errors";
import type { SandboxContext } from "./context";
import { newRouter, paginate } from "./http";
import { serializeOrganization } from "./organizations.serializers";
import { updateOrganization } from "./organizations.service";
import type { OrganizationRecord } from "./records";
import { organizationUpdateSchema } from "./schemas";

/** The provider organization (the merchant): listed, read and updated; the sandbox has exactly one. */
export function organizationRoutes(ctx: SandboxContext) {
  const router = newRouter();

  const byId = (id: string): OrganizationRecord => {
    if (id !== ctx.organization.id) throw notFound();
    return ctx.organization;
  };

  router.get("/", (c) => {
    const slug = c.req.query("slug");
    return c.json(paginate(c, slug && slug !== ctx.organization.slug ? [] : [ctx.organization], serializeOrganization));
  });

  router.get("/:id", (c) => c.json(serializeOrganization(byId(c.req.param("id")))));

  router.patch("/:id", async (c) => {
    byId(c.req.param("id"));
    const input = await readJson(c, organizationUpdateSchema);
    return c.json(serializeOrganization(ctx.store.transaction(() => updateOrganization(ctx, input))));
  });

  return router;
}
