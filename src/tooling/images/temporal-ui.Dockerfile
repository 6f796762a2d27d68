# Stand-in for temporalio/ui (https://hub.docker.com/r/temporalio/ui, docs:
# https://docs.temporal.io/web-ui), built where Docker Hub cannot be reached: the UI server built from
# the Go module proxy (github.com/temporalio/ui-server/v2, the web app embedded) with the image's own
# config (config/docker.yaml of the same module version: TEMPORAL_ADDRESS, TEMPORAL_UI_PORT, …).
FROM debian:bookworm-slim
RUN groupadd --gid 1000 temporal \
 && useradd --uid 1000 --gid temporal --create-home temporal \
 && mkdir -p /home/ui-server/config
WORKDIR /home/ui-server
COPY ui-server ./
COPY docker.yaml ./config/docker.yaml
RUN chown -R temporal:temporal /home/ui-server
USER temporal
EXPOSE 8080
ENTRYPOINT ["./ui-server", "--env", "docker", "start"]
