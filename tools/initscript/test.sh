#!/usr/bin/env bash
# Does with the safeprobe command what an init script does (make initscript):
#
#   1. start twice: the second start is refused (exit 75), naming the holder;
#   2. SIGKILL the holder: the next start succeeds at once;
#   3. stop: only the holder gets the signal, a bystander does not;
#   4. PID reuse: the holder is SIGKILLed and its PID given to a bystander
#      (forced with /proc/sys/kernel/ns_last_pid, in a PID namespace of
#      its own so that no other process's PIDs move): status says the file
#      is stale, stop signals no one, where kill "$(cat app.pid)" would hit
#      the bystander.
#
# Linux. Step 4 needs root and unshare(1); without them it is skipped with
# a line saying so (CI runs as root: there it must run). Every process it
# starts is ended and its files removed, however it exits.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${SAFEPROBE_INITSCRIPT_NS:-}" != 1 ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	(cd "$repo/safeprobe" && go build -o "$work/safeprobe" ./cmd/safeprobe)
	if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
		# A PID namespace of its own, with its own /proc: its ns_last_pid
		# moves only its PIDs, and when the script ends, the kernel ends
		# every process left in it.
		SAFEPROBE_INITSCRIPT_NS=1 SP="$work/safeprobe" unshare --pid --fork --mount-proc bash "$0"
	else
		echo "initscript: not root or no unshare: step 4 (PID reuse) is SKIPPED" >&2
		SAFEPROBE_INITSCRIPT_NS=0 SP="$work/safeprobe" bash "$0"
	fi
	exit
fi

sp=$SP
work=$(mktemp -d)
chmod 700 "$work"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
pidfile=$work/app.pid
log=$work/app.log
: >"$log"

fail() {
	echo "initscript: FAIL: $*" >&2
	echo "--- app.log:" >&2
	cat "$log" >&2
	exit 1
}
ok() { echo "initscript: ok: $*"; }

# The daemon: runs in the foreground, logs its start and the TERM it gets,
# and keeps the lock descriptor safeprobe run hands it out of its children.
cat >"$work/app" <<'EOF'
#!/bin/bash
trap 'echo "TERM $$" >>"$LOG"; exit 0' TERM
echo "start $$" >>"$LOG"
while :; do
	eval "sleep 0.05 $SAFEPROBE_LOCK_FD>&-"
done
EOF
chmod +x "$work/app"
export LOG=$log

# start: what an init script's start does; it returns at once.
start() {
	"$sp" run -lock "$pidfile" -- "$work/app" &
	pids+=($!)
}

# until_status CODE: waits up to 10 s for safeprobe status to exit CODE.
until_status() {
	local want=$1 rc
	for _ in $(seq 200); do
		rc=0
		"$sp" status "$pidfile" >/dev/null 2>&1 || rc=$?
		[ "$rc" = "$want" ] && return 0
		sleep 0.05
	done
	fail "status did not become $want (last $rc)"
}

# bystander: a process that must get no signal; its PID in $bystander.
bystander() {
	sleep 1000 &
	bystander=$!
	pids+=("$bystander")
}

# 1. Start twice.
start
until_status 0
holder=$(head -n1 "$pidfile")
grep -q "^start $holder$" "$log" || fail "the record names $holder, which is not the daemon"
rc=0
out=$("$sp" run -lock "$pidfile" -- "$work/app" 2>&1) || rc=$?
[ "$rc" = 75 ] || fail "second start exited $rc, want 75: $out"
case $out in *"pid $holder"*) ;; *) fail "second start does not name the holder $holder: $out" ;; esac
[ "$(grep -c '^start' "$log")" = 1 ] || fail "a second daemon started"
ok "start twice: the second is refused (75), naming pid $holder"

# 2. SIGKILL the holder: the next start succeeds at once.
kill -9 "$holder"
wait "$holder" 2>/dev/null || true
rc=0
"$sp" status "$pidfile" >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "status of a SIGKILLed holder's file: $rc, want 1 (dead, file left)"
t0=$(date +%s%N)
start
until_status 0
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -lt 5000 ] || fail "the start after SIGKILL took $ms ms"
holder=$(head -n1 "$pidfile")
ok "SIGKILLed holder: status 1, the next start holds the lock in $ms ms"

# 3. Stop: the holder gets TERM, a bystander nothing.
bystander
"$sp" stop -timeout 10s "$pidfile" || fail "stop exited $?"
grep -q "^TERM $holder$" "$log" || fail "the holder $holder did not get TERM"
[ "$(grep -c '^TERM' "$log")" = 1 ] || fail "TERM reached more than the holder"
kill -0 "$bystander" || fail "the bystander $bystander is gone"
rc=0
"$sp" status "$pidfile" >/dev/null || rc=$?
[ "$rc" = 3 ] || fail "status after stop: $rc, want 3 (not running, no file)"
rc=0
"$sp" stop "$pidfile" || rc=$?
[ "$rc" = 1 ] || fail "stop of a stopped daemon: $rc, want 1"
ok "stop: TERM to the holder $holder only; status 3 after; a second stop exits 1"

# 4. PID reuse.
if [ "$SAFEPROBE_INITSCRIPT_NS" != 1 ]; then
	ok "PID reuse: SKIPPED (needs root and unshare)"
	exit 0
fi
start
until_status 0
holder=$(head -n1 "$pidfile")
kill -9 "$holder"
wait "$holder" 2>/dev/null || true
# Give the dead holder's PID to a bystander: ns_last_pid is the PID last
# handed out in this namespace, and the next fork gets the one after it.
for _ in 1 2 3 4 5; do
	echo $((holder - 1)) >/proc/sys/kernel/ns_last_pid
	bystander
	[ "$bystander" = "$holder" ] && break
	kill -9 "$bystander"
done
[ "$bystander" = "$holder" ] || fail "could not give pid $holder to a bystander (got $bystander)"
kill -0 "$(head -n1 "$pidfile")" || fail "kill -0 does not see the bystander"
rc=0
out=$("$sp" status "$pidfile") || rc=$?
[ "$rc" = 1 ] || fail "status with the holder's PID reused: $rc, want 1: $out"
case $out in *"its PID now names another process"*) ;; *) fail "status does not say the PID was reused: $out" ;; esac
rc=0
"$sp" stop -kill -timeout 1s "$pidfile" || rc=$?
[ "$rc" = 1 ] || fail "stop with the holder's PID reused: $rc, want 1 (not running)"
kill -0 "$bystander" || fail "stop signalled the bystander $bystander, which has the dead holder's PID"
# A new holder, with the bystander still on the old PID: stop reaches the
# new holder only.
start
until_status 0
holder=$(head -n1 "$pidfile")
"$sp" stop "$pidfile" || fail "stop exited $?"
grep -q "^TERM $holder$" "$log" || fail "the new holder $holder did not get TERM"
kill -0 "$bystander" || fail "the bystander $bystander is gone"
ok "PID reuse: status 1 (reused), stop signals no one; a new holder alone gets TERM"
