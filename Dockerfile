# syntax=docker/dockerfile:1
# Scribe: one Node 20 process serving the API, the GitHub webhooks and the background workers, run from the
# JavaScript compiled once at build time (no TypeScript loader at run time).
# Build: docker build -t scribe .   Run: docker run -p 3000:3000 -v scribe-data:/app/data scribe

# ---- production dependencies (native addons better-sqlite3 and roaring compile here, never in the runtime image) ----
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# ---- build: type-check the sources with the dev toolchain (a broken tree never becomes an image), then compile ----
FROM deps AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json app.yml ./
COPY src ./src
COPY prisma ./prisma
COPY scripts ./scripts
COPY test ./test
RUN npx tsc --noEmit -p tsconfig.json \
 && node scripts/build.js

# ---- runtime: dist/ (the compiled service with the files it reads: dashboard, migrations, app.yml) and prod deps ----
FROM node:20-bookworm-slim AS runtime
# git: the agent clones and pushes docs repositories; tini: PID 1 that forwards SIGTERM for graceful shutdown.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_URL=file:/app/data/scribe.db
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# the operator CLI (docker exec <container> node bin/scribe.js …) runs dist/ as it is: there is no src/ to rebuild from
COPY bin ./bin
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
# liveness (/healthz), not readiness: a database outage should not mark every replica for replacement
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
# a 64 MiB young generation: ingest allocates short-lived objects per event, and V8's default (16 MiB) spends a sixth
# of its time collecting them while it ingests 10M views (docs/operations-build-and-migrations.md)
CMD ["node", "--max-semi-space-size=64", "dist/src/main.js"]
