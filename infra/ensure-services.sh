#!/usr/bin/env bash
# Makes sure PostgreSQL, Redis and NATS JetStream answer on their configured URLs.
# On a Debian machine a missing service is installed from Debian packages and started on loopback;
# elsewhere the script stops with a message saying what to start.
set -euo pipefail

DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# host and port of a URL such as scheme://user@host:port/db
host_of() { local rest="${1#*://}"; rest="${rest##*@}"; rest="${rest%%/*}"; echo "${rest%%:*}"; }
port_of() { local rest="${1#*://}"; rest="${rest##*@}"; rest="${rest%%/*}"; [[ "$rest" == *:* ]] && echo "${rest##*:}" || echo "$2"; }

reachable() { timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

wait_for() { # name host port
  for _ in $(seq 1 60); do reachable "$2" "$3" && return 0; sleep 0.5; done
  die "$1 did not come up on $2:$3"
}

is_debian() { [[ -f /etc/debian_version ]] && command -v apt-get >/dev/null; }

APT_UPDATED=0
apt_install() {
  is_debian || return 1
  [[ $(id -u) -eq 0 ]] || die "installing $* needs root (run as root, or start the service yourself)"
  if [[ $APT_UPDATED -eq 0 ]]; then log "apt-get update"; DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2; APT_UPDATED=1; fi
  log "installing $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

local_host() { [[ "$1" == "127.0.0.1" || "$1" == "localhost" || "$1" == "::1" ]]; }

ensure_postgres() {
  local host port; host=$(host_of "$DATABASE_URL"); port=$(port_of "$DATABASE_URL" 5432)
  if reachable "$host" "$port"; then log "PostgreSQL is up on $host:$port"; return; fi
  local_host "$host" || die "PostgreSQL is not reachable at $host:$port (DATABASE_URL); start it there"
  is_debian || die "PostgreSQL is not running on $host:$port; install and start PostgreSQL 15+, or point DATABASE_URL at one"
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  local version; version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n1)
  [[ -n "$version" ]] || die "PostgreSQL is installed but has no cluster under /etc/postgresql"
  # Loopback only, trust auth for local development and tests.
  local conf="/etc/postgresql/$version/main"
  grep -q "^listen_addresses = '127.0.0.1'" "$conf/postgresql.conf" 2>/dev/null || echo "listen_addresses = '127.0.0.1'" >> "$conf/postgresql.conf"
  if ! grep -q "pointwise-local" "$conf/pg_hba.conf"; then
    printf '# pointwise-local\nhost all all 127.0.0.1/32 trust\nlocal all all trust\n' | cat - "$conf/pg_hba.conf" > "$conf/pg_hba.conf.new" && mv "$conf/pg_hba.conf.new" "$conf/pg_hba.conf"
  fi
  log "starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
  wait_for PostgreSQL "$host" "$port"
}

ensure_redis() {
  local host port; host=$(host_of "$REDIS_URL"); port=$(port_of "$REDIS_URL" 6379)
  if reachable "$host" "$port"; then log "Redis is up on $host:$port"; return; fi
  local_host "$host" || die "Redis is not reachable at $host:$port (REDIS_URL); start it there"
  command -v redis-server >/dev/null || apt_install redis-server || die "Redis is not running on $host:$port; install redis-server 7+ and start it, or point REDIS_URL at one"
  log "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no >&2
  wait_for Redis "$host" "$port"
}

ensure_nats() {
  local host port; host=$(host_of "$NATS_URL"); port=$(port_of "$NATS_URL" 4222)
  if reachable "$host" "$port"; then log "NATS is up on $host:$port"; return; fi
  local_host "$host" || die "NATS is not reachable at $host:$port (NATS_URL); start it there"
  local bin; bin=$(command -v nats-server || echo /usr/sbin/nats-server)
  [[ -x "$bin" ]] || apt_install nats-server || die "NATS is not running on $host:$port; install nats-server 2.10+ and start it with -js, or point NATS_URL at one"
  bin=$(command -v nats-server || echo /usr/sbin/nats-server)
  local store="${NATS_STORE_DIR:-/var/lib/nats-server}"
  mkdir -p "$store"
  log "starting NATS with JetStream (store: $store)"
  if command -v start-stop-daemon >/dev/null; then
    start-stop-daemon --start --oknodo --background --exec "$bin" -- -a 127.0.0.1 -p "$port" -js -sd "$store" >&2
  else
    nohup "$bin" -a 127.0.0.1 -p "$port" -js -sd "$store" >/dev/null 2>&1 &
  fi
  wait_for NATS "$host" "$port"
}

want="${*:-postgres redis nats}"
for s in $want; do
  case "$s" in
    postgres) ensure_postgres ;;
    redis) ensure_redis ;;
    nats) ensure_nats ;;
    *) die "unknown service $s (postgres, redis, nats)" ;;
  esac
done
