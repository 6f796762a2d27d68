# One image for the API and the workers (the command picks the role; see docker-compose.yml).
# Node 24 LTS. Two stages: the build compiles TypeScript to dist/ with the dev dependencies; the
# image holds dist/ and the production dependencies only, and runs plain `node`.
# test/deploy/compose.test.ts builds it with `docker build` and runs it in docker-compose.yml (in `npm test`).

FROM node:24-bookworm-slim AS build
ENV PUPPETEER_SKIP_DOWNLOAD=1
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN npm run build

FROM node:24-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap chromium-headless-shell ffmpeg fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin video-render
ENV NODE_ENV=production PUPPETEER_SKIP_DOWNLOAD=1
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts
# The repository's patches to dependencies (patches/README.md), as `npm start` applies them.
COPY patches ./patches
RUN npx patch-package --error-on-fail
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
CMD ["node", "dist/src/app/api.js"]
