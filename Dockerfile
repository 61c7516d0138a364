# syntax=docker/dockerfile:1
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
# Production node_modules: no dev tools, and no optional packages, which drops the embedded
# PostgreSQL (60 MB of binaries; containers use DATABASE_URL) and TypeScript (24 MB; only an
# optional peer of @nestjs/swagger's compiler plugin). 530 MB -> 140 MB.
RUN npm run build && npm prune --omit=dev --omit=optional --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 LOG_FORMAT=json
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json ./
USER node
EXPOSE 3000
# Containers run against a PostgreSQL server: set DATABASE_URL (and API_KEY, at least 32 characters).
# Without DATABASE_URL the start exits at once with "set DATABASE_URL": the image has no embedded database.
# The same image runs workers (WORKERS_ONLY=true): they serve /health/live and /health/ready on PORT
# too, so this check holds for API and worker containers alike.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Node runs as PID 1 on purpose: main.ts handles SIGTERM and SIGINT itself (readiness 503 at once,
# SHUTDOWN_DRAIN_SECONDS of serving, then it finishes what is in flight and exits 0; see
# docs/operations.md), and the process starts no children, so there are no zombies to reap.
# `docker run --init` (compose: `init: true`) adds tini anyway, which passes the signal on.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/src/main.js"]
