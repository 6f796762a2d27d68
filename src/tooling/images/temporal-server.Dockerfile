# Stand-in for temporalio/server (https://hub.docker.com/r/temporalio/server, docs:
# https://docs.temporal.io/self-hosted-guide), built where Docker Hub cannot be reached. The server is
# built from the Go module proxy (go.temporal.io/server/cmd/server); its config template is the one
# the upstream image ships (docker/config_template.yaml of the same module version).
FROM debian:bookworm-slim
RUN groupadd --gid 1000 temporal \
 && useradd --uid 1000 --gid temporal --create-home temporal \
 && mkdir -p /etc/temporal/config/dynamicconfig \
 && chown -R temporal:temporal /etc/temporal/config
COPY temporal-server temporal /usr/local/bin/
COPY config_template.yaml /etc/temporal/config/config_template.yaml
COPY dynamicconfig.yaml /etc/temporal/config/dynamicconfig/docker.yaml
COPY temporal-server-entrypoint.sh /etc/temporal/entrypoint.sh
ENV TEMPORAL_HOME=/etc/temporal
WORKDIR /etc/temporal
USER temporal
EXPOSE 6933 6934 6935 6939 7233 7234 7235 7239
ENTRYPOINT ["/etc/temporal/entrypoint.sh"]
