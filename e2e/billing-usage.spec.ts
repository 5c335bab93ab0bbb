import { expect, ownerOnPro, test, uniqueUser } from "./fixtures";

/**
 * Usage recorded through the API shows on the open billing page within seconds, with the overage estimate, before
 * the period ends: no reload, no wait for the provider's next count.
 */
test("usage recorded through the API shows on the open billing page within seconds, with the overage estimate", async ({
  page,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("metered");
  const organizationName = `Metered ${owner.username.slice(-6)}`;
  await ownerOnPro(page, mailbox, owner, organizationName);
  await expect(page.getByText("0 of 10,000 used")).toBeVisible();

  const organizationId = new URL(page.url()).pathname.split("/")[2];
  const status = await page.evaluate(async (path) => {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ meter: "api_request", quantity: 12_345, key: "import-1" }),
    });
    return response.status;
  }, `/api/organizations/${organizationId}/billing/usage`);
  expect(status).toBe(202);

  await expect(page.getByText("12,345 of 10,000 used")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText(/2,345 above what your plan includes: about \$2\.35 so far/)).toBeVisible();
});
