#!/bin/sh
kill "$(cat /run/a.pid)"
if then (
