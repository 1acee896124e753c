#!/usr/bin/env bash
# Ships queuey the three ways docs/install.md gives, and runs what each installs. Run by
# .ci/run (as root, on a clean checkout, after the lints); by hand: `scripts/package-check.sh`.
#
#  1. the crates: `cargo package` and `cargo publish --dry-run` of queuey-cli-core and
#     queuey-cli, then the README's `cargo install queuey-cli --locked` from the packaged
#     `.crate` instead of crates.io, into a temporary root, offline (the `.crate`'s own sources
#     and Cargo.lock, nothing fetched);
#  2. the `.deb`: the README's `cargo deb --locked` and `dpkg -i`, then `queuey --version`,
#     `man -w`, bash completing `queuey de` as an interactive shell would; removed afterwards;
#  3. from a clone: the README's `cargo install --path . --locked`, into a temporary root;
#  4. by hand: the README's lines that install the completions and man pages, into a temporary
#     home, where bash and man must find them.
#
# Each installed queuey must say this version and this commit. The release builds share the
# target directory (CARGO_TARGET_DIR, else ./target): the dependencies are built once, the two
# queuey crates once from the packaged sources and once from the clone's (`cargo deb`, whose
# build the clone's install then reuses whole).
# tests/offline/packaging.rs checks that the README's install lines are the ones run here.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n== %s\n' "$*"; }
fail() { echo "package-check: $*" >&2; exit 1; }
step_start=$(date +%s)
took() {
  local now
  now=$(date +%s)
  echo "($1: $((now - step_start)) s)"
  step_start=$now
}

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
pkgid=$(cargo pkgid -p queuey-cli)
version=${pkgid##*@}
commit=$(git rev-parse HEAD | cut -c1-10)
tmp=$(mktemp -d /tmp/queuey-package-check.XXXXXX)
deb_installed=
cleanup() {
  if [ -n "$deb_installed" ]; then dpkg -r queuey >/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# check_version BINARY: `--version` names this release, this commit and the library.
check_version() {
  local out first
  out=$("$1" --version)
  echo "$out"
  first=$(head -n1 <<<"$out")
  [ "$first" = "queuey $version (commit $commit)" ] \
    || fail "$1 --version says '$first', not 'queuey $version (commit $commit)'"
  grep -q '^queuey library: .*checked against [0-9]' <<<"$out" \
    || fail "$1 --version does not name the queuey library"
}

# check_args BINARY: the offline `args` runs.
check_args() {
  local out
  out=$("$1" args orders) || fail "$1 args orders failed"
  grep -q 'orders\.dead' <<<"$out" || fail "$1 args orders does not list orders.dead: $out"
}

# check_bash_completes HOME: bash, as an interactive shell of a user whose home is HOME does,
# finds queuey's completion by the command's name (bash-completion's loader looks in
# HOME/.local/share and in /usr/share), and it completes `queuey de` to dead and declare.
check_bash_completes() {
  local replies
  replies=$(env -i HOME="$1" PATH=/usr/bin:/bin bash --norc --noprofile -c '
    . /usr/share/bash-completion/bash_completion
    if declare -F _comp_load >/dev/null; then load=_comp_load; else load=__load_completion; fi
    "$load" queuey || { echo "no completion loaded for queuey" >&2; exit 1; }
    fn=$(complete -p queuey | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
    [ "$(declare -F "$fn")" ] || { echo "no completion function for queuey" >&2; exit 1; }
    COMP_WORDS=(queuey de) COMP_CWORD=1 COMP_LINE="queuey de" COMP_POINT=9
    "$fn" queuey de queuey
    printf "%s\n" "${COMPREPLY[@]}"')
  echo "bash completes 'queuey de' with: $(tr '\n' ' ' <<<"$replies")"
  for word in dead declare; do
    grep -qx "$word" <<<"$replies" || fail "bash does not complete 'queuey de' to $word"
  done
}

log "the crates: cargo package and cargo publish --dry-run of queuey-cli-core and queuey-cli $version"
# The verification build of both is the install below, in release: --no-verify spares a debug
# build of their own. `cargo publish --dry-run` leaves no .crate in target/package (its own go
# to a temporary directory): the .crate files installed are `cargo package`'s, made anew.
rm -f "$CARGO_TARGET_DIR"/package/queuey-cli-*.crate
cargo package --workspace --locked --no-verify
cargo publish --dry-run --workspace --locked --no-verify
took "packaged"
for crate in queuey-cli-core queuey-cli; do
  file=$CARGO_TARGET_DIR/package/$crate-$version.crate
  [ -f "$file" ] || fail "no $file"
  echo "$crate-$version.crate: $(du -k "$file" | cut -f1) KiB"
  tar -xzf "$file" -C "$tmp"
done
for doc in LICENSE-MIT LICENSE-APACHE; do
  [ -s "$tmp/queuey-cli-core-$version/$doc" ] || fail "the core's package lacks $doc"
done
for doc in LICENSE-MIT LICENSE-APACHE CHANGELOG.md README.md man/queuey.1 completions/queuey.bash; do
  [ -s "$tmp/queuey-cli-$version/$doc" ] || fail "queuey-cli's package lacks $doc"
done

log "cargo install queuey-cli --locked, from the packaged crate"
# The core is not on crates.io before it is published: the packaged Cargo.lock names it with
# crates.io's source and checksum, and here it is the unpacked core. Those two lines go; every
# other line of the lock is used as it is (--locked), and nothing is fetched (--offline).
lock=$tmp/queuey-cli-$version/Cargo.lock
awk '/^\[\[package\]\]/ { core = 0 } /^name = "queuey-cli-core"$/ { core = 1 }
     core && /^(source|checksum) = / { next } { print }' "$lock" >"$lock.new"
mv "$lock.new" "$lock"
cargo install queuey-cli --locked --offline --path "$tmp/queuey-cli-$version" --root "$tmp/crate" \
  --config "patch.crates-io.queuey-cli-core.path=\"$tmp/queuey-cli-core-$version\""
check_version "$tmp/crate/bin/queuey"
check_args "$tmp/crate/bin/queuey"
took "installed from the crate"

log "the .deb: cargo deb --locked, dpkg -i"
if dpkg -s queuey >/dev/null 2>&1; then
  # Left by a CI run that was stopped midway; elsewhere it may be someone's own: never removed.
  [ -n "${CI:-}" ] || fail "a queuey package is installed: this check installs and removes its own"
  echo "removing the queuey package an earlier run left"
  dpkg -r queuey
fi
if ! command -v cargo-deb >/dev/null; then
  cargo install cargo-deb --locked
  took "cargo-deb installed"
fi
# Into ./target/debian wherever the target directory is, as the README's dpkg line has it.
rm -f target/debian/queuey_*.deb
cargo deb --locked --output target/debian
took "built the .deb"
dpkg -i target/debian/queuey_*.deb
deb_installed=1
dpkg -L queuey
check_version /usr/bin/queuey
check_args /usr/bin/queuey
for page in queuey queuey-dead-replay; do
  found=$(man -w "$page") || fail "man -w $page found nothing"
  [ "$found" = "/usr/share/man/man1/$page.1.gz" ] || fail "man -w $page: $found"
done
[ -f /usr/share/doc/queuey/copyright ] || fail "no /usr/share/doc/queuey/copyright"
ls /usr/share/doc/queuey/CHANGELOG.md* /usr/share/doc/queuey/LICENSE-MIT* \
  /usr/share/doc/queuey/LICENSE-APACHE* >/dev/null
# A home without completions of its own: the package's must be the one found.
check_bash_completes "$tmp/empty-home"
[ -s /usr/share/zsh/vendor-completions/_queuey ] || fail "no zsh completion"
[ -s /usr/share/fish/vendor_completions.d/queuey.fish ] || fail "no fish completion"
dpkg -r queuey
deb_installed=
[ ! -e /usr/bin/queuey ] || fail "dpkg -r left /usr/bin/queuey"
took "installed, checked and removed the .deb"

log "from a clone: cargo install --path . --locked"
cargo install --path . --locked --root "$tmp/clone"
check_version "$tmp/clone/bin/queuey"
check_args "$tmp/clone/bin/queuey"
took "installed from the clone"

log "by hand: the completions and man pages of the clone, into a home of its own"
(
  export HOME=$tmp/home
  mkdir -p "$HOME/.local/bin"
  install -Dm644 completions/queuey.bash ~/.local/share/bash-completion/completions/queuey
  install -Dm644 completions/_queuey ~/.local/share/zsh/site-functions/_queuey
  install -Dm644 completions/queuey.fish ~/.config/fish/completions/queuey.fish
  install -Dm644 -t ~/.local/share/man/man1 man/*.1
  check_bash_completes "$HOME"
  # man finds the pages beside a bin directory on PATH (~/.local/bin: ~/.local/share/man).
  page=$(PATH="$HOME/.local/bin:/usr/bin:/bin" man -w queuey)
  [ "$page" = "$HOME/.local/share/man/man1/queuey.1" ] || fail "man -w queuey: $page"
  [ -s ~/.local/share/zsh/site-functions/_queuey ] && [ -s ~/.config/fish/completions/queuey.fish ]
)
took "installed by hand"

log "packaged, installed and ran: the crate, the .deb, the clone, by hand"
