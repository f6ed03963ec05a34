#!/usr/bin/env bash
# What `npm test` needs beside npm's packages, installed once when missing (idempotent, a no-op once done):
#   Chromium for the browser test (Debian's package, `/usr/bin/chromium` or CHROMIUM_PATH) and Redis for the queue-mode
#   smoke tests (Debian's redis-server): with apt as root, otherwise it names the packages to install and stops;
#   the real n8n 1.123.16 and 2.41.1 (scripts/install-real-n8n.sh) and PostgreSQL 17 (scripts/install-queue-services.sh)
#   and the local npm registry Verdaccio (scripts/install-registry.sh) into the cache folder outside the repository
#   (~/.cache/n8n-nodes-scheduling-platform).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		echo "npm test needs ${missing[*]}: install them first (Debian: sudo apt-get install ${missing[*]}), or set CHROMIUM_PATH to a Chromium of your own." >&2
		exit 1
	fi
	echo "Installing Debian's ${missing[*]} for the tests (once)..." >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# Both n8n lines and PostgreSQL side by side; each prints its progress, and says so when it fails.
pids=()
bash scripts/install-real-n8n.sh 1.123.16 >/dev/null & pids+=($!)
bash scripts/install-real-n8n.sh 2.41.1 >/dev/null & pids+=($!)
bash scripts/install-queue-services.sh >/dev/null & pids+=($!)
bash scripts/install-registry.sh >/dev/null & pids+=($!)
for pid in "${pids[@]}"; do wait "$pid"; done
