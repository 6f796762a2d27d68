# One image for the API and the workers (the command picks the role; see docker-compose.yml).
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap chromium-headless-shell ffmpeg fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin video-render
ENV NODE_ENV=production PUPPETEER_SKIP_DOWNLOAD=1
WORKDIR /app
COPY package.json package-lock.json .puppeteerrc.cjs ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
CMD ["npx", "tsx", "src/api/main.ts"]
