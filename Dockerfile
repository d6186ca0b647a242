# syntax=docker/dockerfile:1
# Scribe: one Node 20 process serving the API, the GitHub webhooks and the background workers.
# Build: docker build -t scribe .   Run: docker run -p 3000:3000 -v scribe-data:/app/data scribe

# ---- dependencies (native addons better-sqlite3 and roaring compile here, never in the runtime image) ----
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# ---- type-check the sources once, with the dev toolchain, so a broken tree never becomes an image ----
FROM deps AS check
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY prisma ./prisma
COPY scripts ./scripts
COPY test ./test
RUN npx tsc --noEmit -p tsconfig.json
# the dashboard's one script (src/http/dashboard/build/), bundled with the dev toolchain and copied with src below
RUN npm run build:dashboard

# ---- runtime ----
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
COPY --from=check /app/src ./src
COPY package.json tsconfig.json app.yml ./
COPY bin ./bin
COPY prisma ./prisma
RUN mkdir -p /app/data && chown -R node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "src/main.ts"]
