#!/usr/bin/env bash
# Scores pidlint's PL007 and PL008 on the labelled real sites in sites.tsv
# (docs/recall.md): builds pidlint from this checkout, then has the recall
# command download each module through the Go module proxy, lint the
# packages that hold its sites (default run and -strict) and print
# precision, recall and every finding at no labelled site. It needs the
# module proxy and takes minutes (make recall).
#
#   tools/recall/recall.sh [recall flags, e.g. -module nats-io -v -markdown out.md]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$repo" && go build -o "$work/pidlint" ./cmd/pidlint)
cd "$here"
go vet ./...
go test -count=1 ./...
go run . -pidlint "$work/pidlint" -strict "$@" sites.tsv
