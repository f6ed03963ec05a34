#!/usr/bin/env bash
# Installs the real n8n application (1.123 line, runs on Node 20) once into a cache folder
# outside the repository, for the smoke test. Prints the folder on its last line. Idempotent.
set -euo pipefail
version="${N8N_SMOKE_VERSION:-1.123.16}"
dir="${N8N_SMOKE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-scheduling-platform/n8n-$version}"
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
mkdir -p "$dir"
cat > "$dir/package.json" <<JSON
{ "name": "n8n-smoke-host", "private": true,
  "dependencies": { "n8n": "$version" },
  "overrides": { "xlsx": "0.18.5" } }
JSON
# This project's .npmrc sets ignore-scripts, and `npm test` passes it on to child processes through
# npm_config_* variables; n8n needs its install scripts (sqlite3 builds from source here).
( cd "$dir" && npm install --ignore-scripts=false --no-audit --no-fund --loglevel=error >&2 )
( cd "$dir" && node -e "require('sqlite3')" ) || { echo "n8n installed without a working sqlite3 in $dir" >&2; exit 1; }
touch "$dir/.installed"
echo "$dir"
