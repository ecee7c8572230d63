#!/bin/sh
f=/run/app.pid
# pidlint:ignore SH002 the file is root's, in a root-only directory
kill "$(cat "$f")"
kill -0 "$(cat "$f")" # pidlint:ignore sh-pidfile-probe status only
# pidlint:ignore SH001 nothing here # want unused
echo hi
# pidlint:ignore PL001 a Go rule # want bad-ignore
kill -HUP "$(cat "$f")" # want SH002
