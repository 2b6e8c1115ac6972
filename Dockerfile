# svc-emulator image: `docker build -t svc-emulator . && docker run -p 8710:8710 svc-emulator`.
# Every setting is an EMULATOR_* variable (docs/configuration.md), e.g. -e EMULATOR_CLOCK=manual.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: compile better-sqlite3 and the TypeScript (the bin as one bundle: scripts/build.mjs),
# then keep production files only ----
# (of better-sqlite3 12 its compiled addon, of 13 (`better-sqlite3-napi`, the one Node 24 loads:
# src/core/sqlite/driver.ts) its prebuilt addon for this platform; the build copies Swagger UI's two
# files into dist/swagger-ui/, so swagger-ui-dist, a dev dependency, is pruned)
FROM ${NODE_IMAGE} AS build
# better-sqlite3 builds from source when no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The package's own `prepare` (the build) needs src/, copied below: only the dependencies' install
# scripts run here (better-sqlite3 compiles its addon, esbuild checks its binary).
RUN npm ci --no-audit --no-fund --ignore-scripts \
 && npm rebuild better-sqlite3 esbuild --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && find dist -name '*.map' -delete \
 && (cd node_modules/better-sqlite3 \
     && mv build/Release/better_sqlite3.node . && rm -rf build deps src \
     && mkdir -p build/Release && mv better_sqlite3.node build/Release/) \
 && (cd node_modules/better-sqlite3-napi \
     && rm -rf deps src \
     && find prebuilds -type f ! -name "$(node -p 'process.platform+"-"+process.arch').node" -delete)

# ---- runtime: node, production node_modules, dist/, scenarios/, fixtures/ ----
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    EMULATOR_HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY scenarios ./scenarios
COPY fixtures ./fixtures
# A writable place for EMULATOR_DB=/data/world.db (mount a volume there to keep the world).
RUN mkdir /data && chown node:node /data
USER node
EXPOSE 8710
# No curl in slim images: Node's fetch. Same port precedence as the CLI (EMULATOR_PORT, PORT).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "const p=process.env.EMULATOR_PORT||process.env.PORT||8710,t=process.env.EMULATOR_CONTROL_TOKEN;fetch('http://127.0.0.1:'+p+'/_control/health',{headers:t?{'x-control-token':t}:{}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/main.js"]
