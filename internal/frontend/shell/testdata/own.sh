#!/bin/sh
# Children the script started, and commands that only look like the rules'.
f=/run/app.pid
sleep 100 &
pid=$!
kill -0 "$pid"
kill "$pid"
/usr/sbin/daemon --foreground &
echo $! > "$f"
sleep 1
p=$(cat "$f")
ps -p "$p" >/dev/null || echo "failed to start"
pids=$(jobs -p)
kill $pids
kill %1
kill -- -$$
kill -0 $$
pkill -f "myapp --config"
kill -HUP "$MAINPID"
celery multi kill node1 --pidfile="$f"
echo kill "$(cat "$f")"
kill 1234
[ -d /proc/self ] && echo procfs
[ -d "/proc/$$/fd" ] && echo procfs
started() {
	p2=$(cat "$f")
	kill -0 "$p2"
}
start() {
	/usr/sbin/daemon &
	echo $! > "$f"
	started
}
start
