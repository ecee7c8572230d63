#!/bin/sh
# Signals to a PID read from a PID file (SH002).
PIDFILE=/run/app.pid
if [ -x /bin/kill ]; then KILL=/bin/kill; else KILL=kill; fi
kill "$(cat "$PIDFILE")" # want SH002
kill -9 `cat "$PIDFILE"` # want SH002
$KILL -TERM "$(cat "$PIDFILE")" # want SH002
read pid < "$PIDFILE"
kill "$pid" # want SH002
sudo kill -s HUP "$pid" # want SH002
pkill -F "$PIDFILE" # want SH002
pkill -TERM -F /run/other.pid # want SH002
$(kill "$pid" > /dev/null 2>&1) # want SH002
stop() {
	kill -TERM "$1" # want SH002
}
stop "$(cat "$PIDFILE")"
get_pids() {
	for p in /run/app/*.pid; do
		cat "$p"
	done
}
for w in $(get_pids); do
	kill -HUP "$w" # want SH002
done
