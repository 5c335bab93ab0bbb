// The reference `npm run bench` compares the product with: the least a Hono app on @hono/node-server can do, in a
// process of its own like the product, on plain node as the compiled product runs. PORT is given by the bench.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono().get("/", (c) => c.text("Hello"));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
