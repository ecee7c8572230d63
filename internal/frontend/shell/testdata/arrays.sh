#!/bin/sh
# sh by its "#!" line, but with bash's arrays: parsed again as bash.
pids=(1 2)
kill "$(cat /run/a.pid)" # want SH002
