#!/usr/bin/env bash
# Installs the real n8n application (1.123 line, runs on Node 20) once into a cache folder
# outside the repository, for the smoke test. Prints the folder. Idempotent.
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
( cd "$dir" && npm install --no-audit --no-fund --loglevel=error >&2 )
touch "$dir/.installed"
echo "$dir"
