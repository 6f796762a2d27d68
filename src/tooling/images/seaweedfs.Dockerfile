# Stand-in for chrislusf/seaweedfs (https://hub.docker.com/r/chrislusf/seaweedfs, docs:
# https://github.com/seaweedfs/seaweedfs/wiki), built where Docker Hub cannot be reached: `weed`
# built from the Go module proxy, at /usr/bin/weed as upstream, data in the /data volume.
FROM debian:bookworm-slim
RUN groupadd --gid 1000 seaweed \
 && useradd --uid 1000 --gid seaweed --no-create-home seaweed \
 && mkdir -p /data && chown seaweed:seaweed /data
COPY weed /usr/bin/weed
COPY seaweedfs-entrypoint.sh /entrypoint.sh
VOLUME /data
EXPOSE 8333 8888 9333 18888 19333
ENTRYPOINT ["/entrypoint.sh"]
