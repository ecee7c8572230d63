#!/bin/bash
# PIDs whose process is checked before the signal: by name (reported only
# with -strict), by start time or a lock (never reported).
f=/run/app.pid
by_args() {
	local pid
	pid=$(cat "$f")
	if [[ $(ps -p "$pid" -o args=) =~ myapp ]]; then
		kill "$pid" # strict SH002
	fi
}
by_exe() {
	local pid
	pid=$(cat "$f")
	[ "$(readlink /proc/$pid/exe)" = /usr/sbin/myapp ] && kill "$pid" # strict SH002
}
by_comm() {
	local pid
	pid=$(cat "$f")
	ps -p "$pid" -o comm= | grep -q '^myapp$' && kill "$pid" # strict SH002
}
by_listing() {
	local pid
	pid=$(cat "$f")
	if ps -p "$pid" | grep -q myapp; then # strict SH001
		kill "$pid" # strict SH002
	fi
}
by_case() {
	local pid name
	pid=$(cat "$f")
	name=$(cat /proc/$pid/comm)
	case "$name" in
	myapp) kill -0 "$pid" ;; # strict SH001
	esac
}
by_start() {
	local pid saved
	pid=$(cat "$f")
	saved=$(cat "$f.start")
	[ "$(ps -o lstart= -p "$pid")" = "$saved" ] && kill "$pid"
}
by_stat() {
	local pid
	pid=$(cat "$f")
	[ "$(cut -d' ' -f22 /proc/$pid/stat)" = "$(cat "$f.tick")" ] && kill "$pid"
}
locked() {
	exec 9>>"$f"
	if ! flock -n 9; then
		kill "$(cat "$f")"
	fi
}
unchecked() {
	local pid
	pid=$(cat "$f")
	kill "$pid" # want SH002
}
