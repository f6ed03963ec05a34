# Sourced by the install scripts (install-real-n8n.sh, install-queue-services.sh): what they print on stderr while
# they install into the shared cache folder or wait for another process that does, at most every 15 seconds: what is
# installed or waited for, the stage, the folder's size so far and the time taken. The process that installs writes
# its stage beside the lock file (<lock>.stage), so a process waiting for the lock can say how far the install is.

INSTALL_LOCK=""
# A stopped script stops the step it runs in the background too (the EXIT trap of install_step).
trap 'exit 130' INT
trap 'exit 143' TERM

elapsed() {
	local seconds=$((SECONDS - $1))
	printf '%d min %02d s' $((seconds / 60)) $((seconds % 60))
}

size_of() {
	echo "$(du -sm "$1" 2>/dev/null | cut -f1 || echo 0) MB"
}

# take_install_lock LOCK WHAT FOLDER: holds LOCK (on fd 9) until this script ends. While another process holds it,
# says that it is installing WHAT into FOLDER, then every 15 s its stage, the folder's size and the time waited.
take_install_lock() {
	INSTALL_LOCK="$1"
	local what="$2" folder="$3" started=$SECONDS
	exec 9>"$INSTALL_LOCK"
	if flock -n 9; then return 0; fi
	echo "Waiting for another process that is installing $what into $folder (lock: $INSTALL_LOCK)..." >&2
	until flock -w 15 9; do
		local stage
		stage="$(cat "$INSTALL_LOCK.stage" 2>/dev/null || echo 'starting')"
		echo "  still waiting for $what: the other process is at \"$stage\"; $(size_of "$folder") in $folder so far; waited $(elapsed "$started")" >&2
	done
	echo "  the other process has finished with $what (waited $(elapsed "$started"))" >&2
}

# install_stage TEXT: says which stage the install is in, here and to processes waiting for the lock.
install_stage() {
	echo "$1..." >&2
	echo "$1" > "$INSTALL_LOCK.stage"
}

# install_step FOLDER STAGE COMMAND...: runs COMMAND in FOLDER (its output to stderr) as STAGE, saying every 15 s
# the folder's size and the time taken; fails as COMMAND does.
install_step() {
	local folder="$1" stage="$2" started=$SECONDS next=$((SECONDS + 15))
	shift 2
	install_stage "$stage"
	( cd "$folder" && exec "$@" >&2 ) &
	local pid=$!
	trap 'kill "$pid" 2>/dev/null' EXIT
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ "$SECONDS" -ge "$next" ]; then
			echo "  $stage: $(size_of "$folder") in $folder so far, $(elapsed "$started")" >&2
			next=$((SECONDS + 15))
		fi
	done
	trap - EXIT
	wait "$pid"
}

# install_done: the install has finished; no stage is left for waiting processes to read.
install_done() {
	rm -f "$INSTALL_LOCK.stage"
}
