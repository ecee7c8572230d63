#!/bin/sh
# A PID file's existence as the single-instance guard (SH003).
PIDFILE=/run/app.pid
die() { echo "$*" >&2; exit 1; }
[ -e "$PIDFILE" ] && exit 1 # want SH003
if [ -f /run/other.pid ]; then # want SH003
	echo "already running"
	exit 0
fi
if test -s "$PIDFILE"; then echo running; exit 1; fi # want SH003
echo $$ > /run/mine.lock
[ -f /run/mine.lock ] && die "busy" # want SH003
if ! [ -e "$PIDFILE" ]; then :; else exit 1; fi
if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")"; then exit 1; fi # want SH001
[ -f "$PIDFILE" ] && rm -f "$PIDFILE"
if [ -f "$PIDFILE" ]; then echo running; exit 0; else echo stopped; exit 3; fi
[ -f /etc/app.conf ] || exit 1
[ -f /etc/app.conf ] && exit 1
exec 8>/run/locked.pid
flock -n 8 || exit 1
[ -e /run/locked.pid ] && exit 1
if [ -f "$PIDFILE" ] # want SH003
then
	echo "$PIDFILE exists: already running, or crashed"
else
	/usr/sbin/app --daemon
fi
if [ -f "$PIDFILE" ]; then echo running; else echo stopped; fi
if [ -f "$PIDFILE" ]; then echo "stale file"; rm -f "$PIDFILE"; else echo none; fi
