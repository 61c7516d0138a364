#!/usr/bin/env bash
# A local Citus cluster for development and CI: build Citus once from a source tarball, start and
# stop a coordinator and two workers on loopback ports of their own, make a database on every node.
# See docs/scaling.md ("Local cluster").
#
#   scripts/citus.sh build            build and install Citus from $CITUS_SOURCE (skipped when installed)
#   scripts/citus.sh start            build if needed, init (first time) and start the three nodes
#   scripts/citus.sh stop             stop the nodes (data kept; `rm -rf .citus` forgets them)
#   scripts/citus.sh status           which nodes run
#   scripts/citus.sh createdb NAME    a database on every node, extension created, workers registered
#   scripts/citus.sh dropdb NAME      drop it on every node
#   scripts/citus.sh url [NAME]       the coordinator's connection URL
#
# Exit code 3: Citus is not installed and no CITUS_SOURCE tarball was given (callers may skip).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PG_BIN="${CITUS_PG_BIN:-/usr/lib/postgresql/15/bin}"
CLUSTER_DIR="${CITUS_DIR:-$ROOT/.citus}"
COORDINATOR_PORT="${CITUS_PORT:-9700}"
WORKER_PORTS=("$((COORDINATOR_PORT + 1))" "$((COORDINATOR_PORT + 2))")
# 32 shards per table (Citus's default) is sized for many cores; a two-core test cluster does
# better with fewer, and every test database creates each table's shards anew.
SHARD_COUNT="${CITUS_SHARD_COUNT:-8}"
EXIT_NO_SOURCE=3
# As root the nodes run as `postgres`, which must be able to reach the data folder: a checkout under
# a private home (mode 700) cannot hold it, so the cluster lives in a folder named after the checkout.
if [ -z "${CITUS_DIR:-}" ] && [ "$(id -u)" -eq 0 ] && ! runuser -u postgres -- test -x "$ROOT"; then
  CLUSTER_DIR="${TMPDIR:-/tmp}/citus-$(printf '%s' "$ROOT" | md5sum | cut -c1-12)"
fi
BUILD_PACKAGES=(postgresql-server-dev-15 libkrb5-dev libcurl4-gnutls-dev liblz4-dev libzstd-dev make gcc)

say() { echo "citus: $*" >&2; }
die() {
  say "$*"
  exit 1
}

# PostgreSQL refuses to run as root: as root, the nodes run as the `postgres` OS user (from /, a
# folder it may enter).
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# Root installs directly; anyone else needs password-less sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    die "installing needs root: run as root or with password-less sudo (sudo -n true fails)"
  fi
}

node_names() { echo coordinator worker1 worker2; }
node_port() {
  case "$1" in
    coordinator) echo "$COORDINATOR_PORT" ;;
    worker1) echo "${WORKER_PORTS[0]}" ;;
    worker2) echo "${WORKER_PORTS[1]}" ;;
  esac
}

psql_on() { # port database sql...
  local port="$1" db="$2"
  shift 2
  as_pg env PGOPTIONS="-c client_min_messages=warning" "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d "$db" -At "$@"
}

installed_version() {
  local lib
  lib="$("$PG_BIN/pg_config" --pkglibdir)/citus.so"
  [ -f "$lib" ] || return 0
  grep -aoE 'Citus [0-9]+\.[0-9]+\.[0-9]+' "$lib" | head -1 | cut -d' ' -f2 || true
}

tarball_version() { # the version in the tarball's configure.ac: AC_INIT([Citus], [13.2.2])
  tar -xzf "$1" -O --wildcards '*/configure.ac' | sed -n 's/^AC_INIT(\[Citus\], \[\([^]]*\)\]).*/\1/p' | head -1
}

no_source() {
  say "no Citus build: set CITUS_SOURCE to a Citus source tarball (e.g. shared/vendor/citus/citus-v13.2.2-slim.tar.gz, or a release's source archive from the citusdata/citus repository)"
  exit "$EXIT_NO_SOURCE"
}

install_build_packages() {
  local missing=()
  for p in "${BUILD_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing build packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

cmd_build() {
  local installed wanted src started
  installed="$(installed_version)"
  if [ -z "${CITUS_SOURCE:-}" ]; then
    [ -n "$installed" ] && {
      say "Citus $installed is installed"
      return 0
    }
    no_source
  fi
  [ -f "$CITUS_SOURCE" ] || die "CITUS_SOURCE is not a file: $CITUS_SOURCE"
  wanted="$(tarball_version "$CITUS_SOURCE")"
  [ -n "$wanted" ] || die "no Citus version found in $CITUS_SOURCE (configure.ac)"
  if [ "$installed" = "$wanted" ]; then
    say "Citus $wanted is installed; build skipped"
    return 0
  fi
  install_build_packages
  started=$SECONDS
  src="$(mktemp -d)"
  tar -xzf "$CITUS_SOURCE" -C "$src" --strip-components=1
  # PostgreSQL 15.20 exports have_createdb_privilege() itself; rename Citus's own copy.
  sed -i 's/^have_createdb_privilege(void)$/citus_have_createdb_privilege_pg15_shim(void)/' "$src/src/include/pg_version_compat.h"
  say "building Citus $wanted (a few minutes; log in $src/build.log while it runs)"
  (
    cd "$src"
    ./configure PG_CONFIG="$PG_BIN/pg_config" >build.log 2>&1
    make -j"$(nproc)" with_llvm=no >>build.log 2>&1
  ) || {
    tail -30 "$src/build.log" >&2
    die "build failed (log: $src/build.log)"
  }
  as_root make -C "$src" install with_llvm=no >>"$src/build.log" 2>&1 || {
    tail -30 "$src/build.log" >&2
    die "make install failed"
  }
  rm -rf "$src"
  say "Citus $(installed_version) installed in $((SECONDS - started)) s"
}

init_node() { # name port
  local dir="$CLUSTER_DIR/$1" port="$2"
  [ -f "$dir/PG_VERSION" ] && return 0
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$CLUSTER_DIR" "$dir"
  chmod 700 "$dir"
  as_pg "$PG_BIN/initdb" -D "$dir" -U postgres --auth=trust --no-sync >/dev/null
  cat >>"$dir/postgresql.conf" <<EOF

# scripts/citus.sh: a local test node
shared_preload_libraries = 'citus'
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = ''
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
citus.shard_count = $SHARD_COUNT
EOF
  cat >"$dir/pg_hba.conf" <<EOF
host all all 127.0.0.1/32 trust
host all all ::1/128 trust
EOF
}

node_running() { as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/$1" status >/dev/null 2>&1; }

cmd_start() {
  cmd_build
  [ -n "$(installed_version)" ] || no_source
  local started=$SECONDS name
  for name in $(node_names); do
    init_node "$name" "$(node_port "$name")"
    node_running "$name" && continue
    as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/$name" -l "$CLUSTER_DIR/$name.log" -w -t 60 start >/dev/null ||
      die "$name did not start: see $CLUSTER_DIR/$name.log"
  done
  cmd_createdb postgres
  say "cluster up in $((SECONDS - started)) s: coordinator 127.0.0.1:$COORDINATOR_PORT, workers ${WORKER_PORTS[*]}"
}

cmd_stop() {
  local name
  for name in $(node_names); do
    node_running "$name" && as_pg "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/$name" -m fast -w stop >/dev/null
  done
  say "cluster stopped"
}

cmd_status() {
  local name code=0
  for name in $(node_names); do
    if [ -d "$CLUSTER_DIR/$name" ] && node_running "$name"; then
      echo "$name 127.0.0.1:$(node_port "$name") running"
    else
      echo "$name 127.0.0.1:$(node_port "$name") stopped"
      code=1
    fi
  done
  return $code
}

valid_name() { [[ "$1" =~ ^[a-z_][a-z0-9_]*$ ]] || die "database name must be lower-case letters, digits and _: $1"; }

# The workers first: the coordinator's citus_add_node connects to the worker's database of the
# same name and expects the extension there.
cmd_createdb() {
  local db="${1:?usage: createdb NAME}" name port worker
  valid_name "$db"
  for name in worker1 worker2 coordinator; do
    port="$(node_port "$name")"
    if [ "$db" != postgres ] && [ -z "$(psql_on "$port" postgres -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
      psql_on "$port" postgres -c "CREATE DATABASE $db"
    fi
    psql_on "$port" "$db" -c "CREATE EXTENSION IF NOT EXISTS citus"
  done
  psql_on "$COORDINATOR_PORT" "$db" -c "SELECT citus_set_coordinator_host('127.0.0.1', $COORDINATOR_PORT)" >/dev/null
  for worker in "${WORKER_PORTS[@]}"; do
    psql_on "$COORDINATOR_PORT" "$db" -c "SELECT citus_add_node('127.0.0.1', $worker)" >/dev/null
  done
}

cmd_dropdb() {
  local db="${1:?usage: dropdb NAME}" name
  valid_name "$db"
  [ "$db" != postgres ] || die "refusing to drop postgres"
  for name in coordinator worker1 worker2; do
    psql_on "$(node_port "$name")" postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"
  done
}

case "${1:-}" in
  build) cmd_build ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  createdb) cmd_createdb "${2:-}" ;;
  dropdb) cmd_dropdb "${2:-}" ;;
  url) echo "postgres://postgres@127.0.0.1:$COORDINATOR_PORT/${2:-postgres}" ;;
  *)
    sed -n '5,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
