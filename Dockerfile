# syntax=docker/dockerfile:1
# The gamehost bot in a container: built in one stage, run in a small
# Debian image as a user without privileges, with every game in /data.
#   docker build -t gamehost .
#   docker run -d --env-file deploy/gamehost.env -v gamehost-data:/data gamehost
# compose.yaml does the same (and offers PostgreSQL with --profile postgres).

FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
# --locked: the versions in Cargo.lock, as CI tests them.
RUN cargo build --release --locked --bin gamehost \
    && install -D -m 0755 target/release/gamehost /out/gamehost

FROM debian:bookworm-slim
# ca-certificates: `sslrootcert=system` for a managed PostgreSQL reads the
# system's roots (Discord's certificate is checked against built-in roots).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 gamehost \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --shell /usr/sbin/nologin gamehost \
    && mkdir -p /data \
    && chown 10001:10001 /data
COPY --from=build /out/gamehost /usr/local/bin/gamehost
# Settings come from the environment (GAMEHOST_<SECTION>_<KEY>, DISCORD_TOKEN);
# a config file can be mounted and named with GAMEHOST_CONFIG. Relative paths
# in it resolve against its folder.
ENV GAMEHOST_DATABASE_PATH=/data/gamehost.db \
    GAMEHOST_DATABASE_BACKUP_DIR=/data/backups \
    GAMEHOST_METRICS_LISTEN=0.0.0.0:9091
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 9091
# `gamehost health` asks the bot's own /healthz (gateway connected and
# database reachable); no HTTP client needed in the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["gamehost", "health"]
# SIGTERM stops the bot cleanly within seconds (docker stop waits 10 s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["gamehost"]
CMD ["run"]
