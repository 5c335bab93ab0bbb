# Atrium's production image: a build stage with every dependency, then a runtime stage with the production ones only.
# CI has no container engine, so this image is not built there. What CI does run is this file's runtime stage:
# scripts/production-check.ts reads it (scripts/production-path.ts), copies what it copies, runs its RUN lines, its
# CMD and its HEALTHCHECK with its ENV, and scripts/production-path.test.ts ties those lines to package.json.
# docs/deployment.md explains how to use it.

# The Node CI runs every test on (.ci/run).
FROM node:24.22.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24.22.3-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/home/node/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
# --omit=optional too: better-auth names vitest as an optional peer, and npm installs an optional peer that is also a
# devDependency (with vite, esbuild, tsx…) unless optional packages are omitted; none is needed in production.
# The npm cache stays in a build cache mount, out of the image.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional --no-audit --no-fund
COPY --from=build /app/scripts/start.mjs /app/scripts/builds.mjs /app/scripts/node-version.mjs /app/scripts/cli.mjs ./scripts/
COPY --from=build /app/dist ./dist
# The application's files stay root's; the server runs as the image's unprivileged user.
USER node
EXPOSE 3000
# Node, not curl: the slim image has no curl. Healthy while /readyz answers 200 (the database answers, not stopping).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=4", "scripts/start.mjs"]
