#!/usr/bin/env bash
# Installs a local npm registry (Verdaccio) once into the cache folder outside the repository, for the tests that
# publish the packed package and install it into the real n8n the way users do (test/registry/). Prints the folder on
# its last line; progress goes to stderr. Idempotent. Start it with
# `node <folder>/node_modules/verdaccio/bin/verdaccio --config <config.yaml>` (test/harness/registry.ts writes one).
#   Verdaccio 6.8.0 runs on this machine's Node 20 (6.10 wants Node 22) once node-fetch is pinned to 2.7.0.
set -euo pipefail
version="${1:-6.8.0}"
dir="${N8N_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-scheduling-platform}/verdaccio-$version"
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
mkdir -p "$dir"
# Test files running in parallel may ask for it at the same time: one installs, the others wait for it.
exec 9>"$dir.lock"
flock 9
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
echo "Installing Verdaccio $version into $dir (once; a minute)..." >&2
cat > "$dir/package.json" <<JSON
{ "name": "local-registry", "private": true,
  "dependencies": { "verdaccio": "$version" },
  "overrides": { "node-fetch": "2.7.0" } }
JSON
# Nothing of it needs an install script (`npm test` passes this project's ignore-scripts=true on anyway).
( cd "$dir" && npm install --ignore-scripts=true --no-audit --no-fund --loglevel=error >&2 )
( cd "$dir" && node node_modules/verdaccio/bin/verdaccio --version >/dev/null ) || { echo "Verdaccio installed but does not start in $dir" >&2; exit 1; }
touch "$dir/.installed"
echo "$dir"
