#!/usr/bin/env bash
# Runs the quick tests (`vitest run --project quick`: all but the tests that start outside tools,
# which CI runs under Node 20) under each pinned Node.js version beside the one on PATH; with
# --all, every test (`vitest run`). The package claims `node >= 20`; CI's own Node is 20, so this
# covers the other supported majors. Node binaries come from the npm registry as packages
# (node-<os>-<arch>@VERSION, which contain bin/node), the only download source CI has. They are
# cached in $NODE_VERSIONS_CACHE (default: node_modules/.cache/node-versions, inside the ignored
# node_modules).
#
# Usage: scripts/node-versions.sh [--all] [VERSION...]   (default: the pinned versions below)
# Exit status: non-zero if any version's suite fails or its Node cannot be fetched.
set -euo pipefail
cd "$(dirname "$0")/.."

VITEST_ARGS=(run --project quick)
if [ "${1:-}" = "--all" ]; then
  VITEST_ARGS=(run)
  shift
fi

# The one place the versions are pinned.
PINNED=(22.23.3 24.21.0)
if [ $# -gt 0 ]; then VERSIONS=("$@"); else VERSIONS=("${PINNED[@]}"); fi
CACHE=${NODE_VERSIONS_CACHE:-node_modules/.cache/node-versions}
# Absolute: NODE_PATH must hold in child processes with another cwd (test/package/pack.test.ts).
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "node-versions: unsupported OS $(uname -s) (Linux and macOS only)" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-versions: unsupported CPU $(uname -m) (x64 and arm64 only)" >&2; exit 2 ;;
esac

# Prints the path of bin/node for version $1, installing node-$os-$arch@$1 into the cache first.
fetch_node() {
  local dir="$CACHE/$1"
  local bin="$dir/node_modules/node-$os-$arch/bin/node"
  if [ ! -x "$bin" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "node-$os-$arch@$1" >&2
  fi
  [ -x "$bin" ] || { echo "node-versions: $bin missing after install" >&2; return 1; }
  echo "$bin"
}

# better-sqlite3 13 (the optional dependency better-sqlite3-napi, which src/core/sqlite/driver.ts loads
# on Node 22+) needs Node 22, so `npm ci` under Node 20 skips it, and 12 is compiled for Node 20's
# ABI only. Install 13 (its npm package ships prebuilt Node-API addons, no compiling) under the
# target Node into the cache and put it on NODE_PATH, leaving node_modules as `npm ci` made it.
# Prints the NODE_PATH entry.
fetch_sqlite() {
  local spec dir="$CACHE/$1-sqlite"
  spec=$(node -p "require('./package.json').optionalDependencies['better-sqlite3-napi']")
  if [ ! -f "$dir/node_modules/better-sqlite3-napi/package.json" ]; then
    mkdir -p "$dir"
    PATH="$(dirname "$2"):$PATH" npm install --prefix "$dir" --no-save --no-package-lock \
      --no-audit --no-fund --loglevel=error "better-sqlite3-napi@$spec" >&2
  fi
  echo "$dir/node_modules"
}

failed=()
for version in "${VERSIONS[@]}"; do
  echo
  echo "=== Node $version: vitest ${VITEST_ARGS[*]} ==="
  if ! node_bin=$(fetch_node "$version"); then
    echo "=== Node $version: could not fetch node-$os-$arch@$version ===" >&2
    failed+=("$version")
    continue
  fi
  sqlite_path=$(fetch_sqlite "$version" "$node_bin")
  # Fail fast and clearly if 13 does not load here (the suite would fail on every store test).
  if ! sqlite_version=$(NODE_PATH="$sqlite_path" "$node_bin" -e "
      const D = require('better-sqlite3-napi'); new D(':memory:').close();
      console.log(require('better-sqlite3-napi/package.json').version)"); then
    echo "=== Node $version: better-sqlite3-napi does not load ===" >&2
    failed+=("$version")
    continue
  fi
  echo "$("$node_bin" --version) at $node_bin; better-sqlite3 $sqlite_version from $sqlite_path"
  # Its bin dir first on PATH, so child processes that tests start with `node` get it too.
  start=$SECONDS
  if PATH="$(dirname "$node_bin"):$PATH" NODE_PATH="$sqlite_path" \
    "$node_bin" node_modules/vitest/vitest.mjs "${VITEST_ARGS[@]}"; then
    echo "=== Node $version: passed ($((SECONDS - start)) s) ==="
  else
    echo "=== Node $version: FAILED ($((SECONDS - start)) s) ===" >&2
    failed+=("$version")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "node-versions: the suite failed under Node ${failed[*]}" >&2
  exit 1
fi
echo "node-versions: the suite passed under Node ${VERSIONS[*]}"
