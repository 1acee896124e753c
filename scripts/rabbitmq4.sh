#!/usr/bin/env bash
# A RabbitMQ 4.x node beside the machine's own broker, from Debian's sid packages in a root of
# its own (../shared/BROKER.md, "A RabbitMQ 4.x node"): they need a newer libc than the machine's.
#
#   scripts/rabbitmq4.sh root            make the root once per machine (about a minute)
#   scripts/rabbitmq4.sh start           start the node (AMQP 5674, API 15674), wait for its API
#   scripts/rabbitmq4.sh stop            stop it
#   scripts/rabbitmq4.sh ctl ARGS...     its own rabbitmqctl (the machine's cannot reach it)
#   scripts/rabbitmq4.sh plugins ARGS... its own rabbitmq-plugins (the benchmarks enable the shovel)
#   scripts/rabbitmq4.sh version         the node's RabbitMQ version
#
# QUEUEY_RABBITMQ4_SUITE=trixie makes and runs Debian stable's RabbitMQ 4.0.5 instead (where
# every return of a quorum message counts a delivery: the rules of neither 3.10 nor 4.3), in a
# root of its own, as queuey40@localhost on AMQP 5676 / API 15676.
# QUEUEY_RABBITMQ4_ROOT moves the root (default /var/cache/queuey/rabbitmq-SUITE). Needs root.
set -euo pipefail
SUITE=${QUEUEY_RABBITMQ4_SUITE:-sid}
case "$SUITE" in
  sid) default_name=queuey4; default_port=5674 ;;
  trixie) default_name=queuey40; default_port=5676 ;;
  *) echo "QUEUEY_RABBITMQ4_SUITE is sid or trixie, not '$SUITE'" >&2; exit 2 ;;
esac
ROOT=${QUEUEY_RABBITMQ4_ROOT:-/var/cache/queuey/rabbitmq-$SUITE}
NAME=${QUEUEY_RABBITMQ4_NODE:-$default_name}
AMQP_PORT=${QUEUEY_RABBITMQ4_PORT:-$default_port}
API_PORT=$((AMQP_PORT + 10000))
DIST_PORT=$((AMQP_PORT + 20000))
DIR=/srv/$NAME

in_root() { chroot "$ROOT" env HOME=/var/lib/rabbitmq "$@"; }

make_root() {
  if [ -x "$ROOT/usr/sbin/rabbitmq-server" ]; then return 0; fi
  command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap; }
  rm -rf "$ROOT.tmp"
  mkdir -p "$(dirname "$ROOT")"
  debootstrap --variant=minbase --include=rabbitmq-server "$SUITE" "$ROOT.tmp" >/dev/null
  mv "$ROOT.tmp" "$ROOT"
}

mount_proc() {
  cp /etc/hosts "$ROOT/etc/hosts"
  mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
}

start() {
  make_root
  mount_proc
  if curl -fsS -u guest:guest "http://127.0.0.1:$API_PORT/api/overview" >/dev/null 2>&1; then
    echo "$NAME@localhost already answers on $AMQP_PORT/$API_PORT"; return 0
  fi
  mkdir -p "$ROOT$DIR/mnesia" "$ROOT$DIR/log"
  cat > "$ROOT$DIR/rabbitmq.conf" <<CONF
listeners.tcp.default = $AMQP_PORT
management.tcp.port = $API_PORT
loopback_users = none
CONF
  echo '[rabbitmq_management].' > "$ROOT$DIR/enabled_plugins"
  in_root chown -R rabbitmq:rabbitmq "$DIR"
  (
    ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
    setsid chroot "$ROOT" env HOME=/var/lib/rabbitmq RABBITMQ_NODENAME="$NAME@localhost" \
      RABBITMQ_DIST_PORT="$DIST_PORT" RABBITMQ_CONFIG_FILE="$DIR/rabbitmq.conf" \
      RABBITMQ_ENABLED_PLUGINS_FILE="$DIR/enabled_plugins" RABBITMQ_MNESIA_BASE="$DIR/mnesia" \
      RABBITMQ_LOG_BASE="$DIR/log" RABBITMQ_PID_FILE="$DIR/pid" \
      rabbitmq-server >"$ROOT$DIR/log/stdout" 2>&1 </dev/null &
  )
  for i in $(seq 1 90); do
    curl -fsS -u guest:guest "http://127.0.0.1:$API_PORT/api/overview" >/dev/null 2>&1 && break
    [ "$i" = 90 ] && { echo "RabbitMQ 4 ($NAME) did not answer within 180s; log in $ROOT$DIR/log" >&2; exit 1; }
    sleep 2
  done
  echo "RabbitMQ $(version) up as $NAME@localhost: amqp://guest:guest@127.0.0.1:$AMQP_PORT/%2f, API http://127.0.0.1:$API_PORT"
}

version() {
  curl -fsS -u guest:guest "http://127.0.0.1:$API_PORT/api/overview" \
    | sed -n 's/.*"rabbitmq_version":"\([^"]*\)".*/\1/p'
}

case "${1:-}" in
  root) make_root ;;
  start) start ;;
  stop) in_root rabbitmqctl -n "$NAME@localhost" stop >/dev/null ;;
  ctl) shift; mount_proc; in_root rabbitmqctl -n "$NAME@localhost" "$@" ;;
  plugins) shift; mount_proc; in_root rabbitmq-plugins -n "$NAME@localhost" "$@" ;;
  version) version ;;
  *) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
