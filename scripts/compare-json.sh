#!/usr/bin/env bash
# Compares the JSON of every read-only command of queuey at an older revision with the current
# tree, on the same broker state: what a refactoring must not change.
#
#   scripts/compare-json.sh OLD_REV
#
# Makes a vhost of its own (qy-json-compare), fills it with the dead letters of the demo
# application (examples/demo_app.rs: every cause, a hold queue, a deferral), runs each command
# with both binaries, one right after the other, and diffs their JSON with the fields that
# move by themselves (ages in seconds, durations) taken out. Exits 1 on a difference. Needs the
# local broker with its management API (guest/guest).
set -euo pipefail
cd "$(dirname "$0")/.."
old_rev=${1:?usage: scripts/compare-json.sh OLD_REV}
work=$(mktemp -d)
vhost=qy-json-compare
api=http://127.0.0.1:15672/api
cleanup() {
  curl -fsS -u guest:guest -X DELETE "$api/vhosts/$vhost" >/dev/null 2>&1 || true
  git worktree remove --force "$work/old" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== building $old_rev and the current tree"
git worktree add -q --detach "$work/old" "$old_rev"
# The same target directory: only queuey itself is compiled again.
CARGO_TARGET_DIR="$PWD/target" cargo build -q --manifest-path "$work/old/Cargo.toml" --bin queuey
cp target/debug/queuey "$work/queuey-old"
cargo build -q --bin queuey --example demo_app
cp target/debug/queuey "$work/queuey-new"

echo "== broker state: vhost $vhost with the demo application's dead letters"
curl -fsS -u guest:guest -X PUT "$api/vhosts/$vhost" >/dev/null
curl -fsS -u guest:guest -X PUT -H 'content-type: application/json' \
  -d '{"configure":".*","write":".*","read":".*"}' "$api/permissions/$vhost/guest" >/dev/null
export QUEUEY_URL="amqp://guest:guest@127.0.0.1:5672/$vhost"
target/debug/examples/demo_app >/dev/null
printf '[queues."shop.orders"]\n\n[queues."shop.refunds"]\n' >"$work/queuey.toml"
"$work/queuey-new" declare --config "$work/queuey.toml" --all >/dev/null 2>&1 || true

# Old and new JSON are the same when every field of the old is in the new with the same value
# (a field the new one adds is allowed: names stay, additions are new answers), leaving out the
# fields that move by themselves.
same_json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
# Ages and timings move with the clock; `redelivered` turns true once a peek (the old binary's,
# just before) has returned a message to the queue.
MOVING = {"age_secs", "oldest_age_secs", "newest_age_secs", "elapsed_ms", "took_ms", "rate",
          "redelivered"}
def contained(old, new, path):
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{path}: object became {type(new).__name__}"]
        out = []
        for k, v in old.items():
            if k in MOVING:
                continue
            if k not in new:
                out.append(f"{path}.{k}: missing in the new JSON")
            else:
                out += contained(v, new[k], f"{path}.{k}")
        return out
    if isinstance(old, list):
        if not isinstance(new, list) or len(old) != len(new):
            return [f"{path}: list of {len(old)} became {new!r:.80}"]
        return [d for i, (a, b) in enumerate(zip(old, new)) for d in contained(a, b, f"{path}[{i}]")]
    return [] if old == new else [f"{path}: {old!r:.60} became {new!r:.60}"]
try:
    old, new = json.loads(open(sys.argv[1]).read()), json.loads(open(sys.argv[2]).read())
except ValueError as e:
    print(f"  not JSON: {e}")
    sys.exit(1)
diffs = contained(old, new, "$")
for d in diffs[:20]:
    print("  " + d)
sys.exit(1 if diffs else 0)
PY
}

status=0
compare() {
  "$work/queuey-old" "$@" -o json >"$work/old.json" 2>/dev/null || true
  "$work/queuey-new" "$@" -o json >"$work/new.json" 2>/dev/null || true
  if same_json "$work/old.json" "$work/new.json"; then
    echo "same      queuey $*"
  else
    echo "DIFFERENT queuey $*"
    status=1
  fi
}

echo "== comparing"
compare args shop.orders --message-ttl 1h --delay 30s
compare declare --dry-run shop.orders
compare verify shop.orders
compare verify --config "$work/queuey.toml" --all
compare status shop.orders
compare status --config "$work/queuey.toml" --all
compare holds ls shop.orders
compare dead ls shop.orders
compare dead ls shop.orders --group-by cause
compare dead ls shop.orders --group-by job-type --group-by cause
compare dead show shop.orders 1
compare dead replay shop.orders --dry-run
compare dead replay shop.orders --cause exhausted --dry-run
exit $status
