# The platform service (and its agent: same image, `node dist/src/agent/main.js`).
#   docker build -t platform .        (BASE: any image with node >= 20, npm and git; see README)
# Two stages: the first installs every dependency and compiles dist/ (npm run build); the second
# gets only the compiled output and the production dependencies, and runs as a non-root user.
# .dockerignore keeps the data directories, secrets and the host's node_modules out of the context.
# Classic-builder compatible (DOCKER_BUILDKIT=0): no BuildKit-only syntax.
ARG BASE=node:24-bookworm-slim

FROM ${BASE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# mkdir: a project without dependencies (the image test's stand-in) still has a node_modules to copy.
RUN npm ci --no-audit --no-fund && mkdir -p node_modules
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY schema ./schema
COPY rest ./rest
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE}
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# A fixed uid, so a volume's ownership can be set from outside; no login shell, no home of its own.
RUN groupadd --system --gid 10001 platform \
  && useradd --system --uid 10001 --gid platform --home-dir /app --shell /usr/sbin/nologin platform \
  && mkdir -p /data /agent-data && chown platform:platform /data /agent-data
WORKDIR /app
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
USER platform:platform
VOLUME ["/data", "/agent-data"]
EXPOSE 8080
# What `npm start` runs (package.json "start"); test/container/image.test.ts keeps the two equal.
CMD ["node", "--max-old-space-size=1024", "--max-semi-space-size=32", "dist/src/main.js"]
