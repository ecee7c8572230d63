#!/usr/bin/env bash
# bash's forms: $(< f), [[ ]], local, functions that print the PID.
f=/var/run/svc.pid
pid=$(< "$f")
[[ -d /proc/$pid ]] && echo up # want SH001
kill -0 $(< "$f") # want SH001
getpid() {
	head -n 1 "$1" | tr -d '[:space:]'
}
p=$(getpid "$f")
kill -HUP "$p" # want SH002
for w in $(cat /run/workers/*.pid); do kill -TERM "$w"; done # want SH002
while read -r q; do kill "$q"; done < "$f" # want SH002
cat "$f" | while read -r r; do kill -9 "$r"; done # want SH002
cat "$f" | xargs kill # want SH002
stop_one() {
	local lp
	lp=$(cat "$1")
	kill "$lp" # want SH002
}
stop_one "$f"
declare -a all=($(cat "$f"))
kill "${all[@]}" # want SH002
