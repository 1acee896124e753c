#!/usr/bin/env bash
# `queuey verify --all` over a fleet of logical queues, against one listing of the same vhost
# (docs/benchmarks.md, "verify --all over 1 000 logical queues").
#
#   scripts/bench-verify.sh                    1 000 logical queues on the broker at 5672/15672
#   QUEUEY_BENCH_API_URL=http://127.0.0.1:15674 QUEUEY_BENCH_AMQP=amqp://guest:guest@127.0.0.1:5674 \
#     scripts/bench-verify.sh                  the same against the 4.3 node
#
# Makes a vhost of its own (deleted at the end, whatever happens), a topology file of N logical
# queues (QUEUEY_BENCH_QUEUES, default 1000), declares their q and q.dead with queuey, and a hold
# queue for every other one through the API (2 500 broker queues for 1 000), then times, RUNS
# times each (default 5), with hyperfine when it is installed (else a plain loop):
#   - queuey verify --all (release build: QUEUEY_BENCH_BIN, default target/release/queuey);
#   - rabbitmqadmin list queues of the vhost (when rabbitmqadmin is on the PATH);
#   - one plain listing of the vhost's queues by curl (GET /api/queues/{vhost}),
# and the wall time and peak RSS of two verify runs under GNU time. QUEUEY_BENCH_BEFORE names
# another build to compare, run the same way beside it. QUEUEY_BENCH_KEEP=1 only
# makes the vhost and the topology file, keeps them and prints the command (for a profiler).
set -euo pipefail
API=${QUEUEY_BENCH_API_URL:-http://127.0.0.1:15672}
AMQP=${QUEUEY_BENCH_AMQP:-amqp://guest:guest@127.0.0.1:5672}
USER_PASS=${QUEUEY_BENCH_CREDENTIALS:-guest:guest}
N=${QUEUEY_BENCH_QUEUES:-1000}
RUNS=${QUEUEY_BENCH_RUNS:-5}
BIN=${QUEUEY_BENCH_BIN:-target/release/queuey}
VHOST=queuey-bench-verify-$$
DIR=$(mktemp -d)

cleanup() {
  curl -fsS -u "$USER_PASS" -X DELETE "$API/api/vhosts/$VHOST" >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT

[ -x "$BIN" ] || { echo "no $BIN: cargo build --release first" >&2; exit 2; }
version=$(curl -fsS -u "$USER_PASS" "$API/api/overview" |
  sed -n 's/.*"rabbitmq_version":"\([^"]*\)".*/\1/p')
echo "RabbitMQ $version at $API; $N logical queues in vhost $VHOST"

curl -fsS -u "$USER_PASS" -X PUT "$API/api/vhosts/$VHOST" >/dev/null
user=${USER_PASS%%:*}
curl -fsS -u "$USER_PASS" -X PUT -H 'content-type: application/json' \
  -d '{"configure":".*","write":".*","read":".*"}' "$API/api/permissions/$VHOST/$user" >/dev/null

# Ten policies on the work queues, as a real vhost has some (a policy on q is information, never
# drift; each matches a tenth of them by the last digit of its name).
for k in 0 1 2 3 4 5 6 7 8 9; do
  curl -fsS -u "$USER_PASS" -X PUT -H 'content-type: application/json' \
    -d "{\"pattern\":\"^bench\\\\.[0-9]{3}$k\$\",\"apply-to\":\"queues\",\"definition\":{\"max-length\":1000000}}" \
    "$API/api/policies/$VHOST/bench-$k" >/dev/null
done

# The topology file: every fourth queue with a message TTL, every tenth with priorities off.
{
  echo '[defaults]'
  echo 'retry_granularity = "1s"'
  for i in $(seq -w 1 "$N"); do
    echo "[queues.\"bench.$i\"]"
    if [ $((10#$i % 4)) -eq 0 ]; then echo 'message_ttl = "1h"'; fi
    if [ $((10#$i % 10)) -eq 0 ]; then echo 'max_priority = 0'; fi
  done
} >"$DIR/queuey.toml"

URL="$AMQP/$VHOST"
"$BIN" declare --all --config "$DIR/queuey.toml" --url "$URL" --api-url "$API" -q >/dev/null

# A hold queue for every other logical queue, as the library declares one (one curl process:
# `next` starts each request's options afresh, the credentials included).
first=1
for i in $(seq -w 1 2 "$N"); do
  q="bench.$i"
  [ $first = 1 ] || printf 'next\n'
  first=0
  printf 'url = "%s/api/queues/%s/%s.deferred.3600000"\nrequest = "PUT"\nuser = "%s"\n' \
    "$API" "$VHOST" "$q" "$USER_PASS"
  printf 'header = "content-type: application/json"\noutput = "/dev/null"\nfail\n'
  printf 'data = "{\\"durable\\":true,\\"arguments\\":{\\"x-message-ttl\\":3600000,\\"x-dead-letter-exchange\\":\\"\\",\\"x-dead-letter-routing-key\\":\\"%s\\",\\"x-expires\\":7200000}}"\n' "$q"
done >"$DIR/holds.curl"
curl -sS -K "$DIR/holds.curl"
total=$(curl -fsS -u "$USER_PASS" "$API/api/queues/$VHOST?page=1&page_size=1&columns=name" |
  sed -n 's/.*"total_count":\([0-9]*\).*/\1/p')
echo "$total broker queues"

verify=("$BIN" verify --all --config "$DIR/queuey.toml" --url "$URL" --api-url "$API" -o json)
if [ -n "${QUEUEY_BENCH_KEEP:-}" ]; then
  # For a profiler: the vhost and the topology file stay; delete the vhost by hand afterwards.
  trap - EXIT
  echo "kept: vhost $VHOST, topology file $DIR/queuey.toml"
  echo "${verify[*]}"
  exit 0
fi
"${verify[@]}" >"$DIR/verify.json" || { echo "verify did not exit 0" >&2; exit 1; }

peak() { # "wall, peak RSS" of one run of the command in "$@", by GNU time
  /usr/bin/time -f '%e s, %M kB' "$@" 2>&1 >/dev/null | tail -1
}
for run in 1 2; do
  echo "queuey verify --all, run $run: $(peak "${verify[@]}")"
  if [ -n "${QUEUEY_BENCH_BEFORE:-}" ]; then
    echo "the same by $QUEUEY_BENCH_BEFORE: $(peak "$QUEUEY_BENCH_BEFORE" "${verify[@]:1}")"
  fi
done

listing="curl -fsS -u $USER_PASS $API/api/queues/$VHOST -o /dev/null"
commands=("${verify[*]} >/dev/null" "$listing")
if [ -n "${QUEUEY_BENCH_BEFORE:-}" ]; then
  commands+=("$QUEUEY_BENCH_BEFORE ${verify[*]:1} >/dev/null")
fi
api_port=${API##*:}
if command -v rabbitmqadmin >/dev/null; then
  commands+=("rabbitmqadmin -u ${USER_PASS%%:*} -p ${USER_PASS#*:} -P $api_port -V $VHOST list queues >/dev/null")
fi
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs "$RUNS" "${commands[@]}"
else
  for c in "${commands[@]}"; do
    for _ in $(seq "$RUNS"); do
      start=$(date +%s.%N)
      sh -c "$c"
      echo "$(echo "$(date +%s.%N) - $start" | bc) s: $c"
    done
  done
fi
