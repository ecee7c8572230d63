#!/bin/sh
# Probes of a PID read from a PID file (SH001).
f=/run/app.pid

kill -0 "$(cat "$f")" 2>/dev/null # want SH001
kill -0 `cat $f` # want SH001
pid=$(cat "$f" 2>/dev/null); kill -0 "$pid" # want SH001
read -r p2 < "$f"
kill -s 0 "$p2" # want SH001
kill -n 0 "$p2" # want SH001
ps -p "$pid" >/dev/null # want SH001
ps "$pid" >/dev/null 2>&1 # want SH001
ps -o pid= -p "$pid" # want SH001
[ -d "/proc/$pid" ] && echo up # want SH001
test -e /proc/$pid || echo gone # want SH001
while [ -x /proc/${pid} ]; do sleep 1; done # want SH001
is_running() { kill -0 "$1" 2>/dev/null; } # want SH001
is_running "$(cat "$f")"
pgrep -F "$f" >/dev/null # want SH001
p3=$(head -n 1 "$f" | tr -d ' ')
kill -0 "$p3" # want SH001
p4=${p3:-$(cat /run/other.pid)}
kill -0 $p4 # want SH001
p5=$(cat /run/shown.pid)
if ps -p "$p5" >/dev/null; then # want SH001
	echo "still running; if this is not the daemon, remove the file:"
	ps -f -p "$p5"
	exit 1
fi
ps -f -p "$p5" >/dev/null || echo gone # want SH001
