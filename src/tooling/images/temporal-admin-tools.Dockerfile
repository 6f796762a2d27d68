# Stand-in for temporalio/admin-tools (https://hub.docker.com/r/temporalio/admin-tools), built where
# Docker Hub cannot be reached: the server's SQL schema tool and the Temporal CLI, both built from the
# Go module proxy, and the server's schemas in /etc/temporal/schema.
FROM debian:bookworm-slim
RUN groupadd --gid 1000 temporal \
 && useradd --uid 1000 --gid temporal --create-home temporal
COPY temporal-sql-tool temporal /usr/local/bin/
COPY schema /etc/temporal/schema
USER temporal
WORKDIR /etc/temporal
ENTRYPOINT ["sleep", "infinity"]
