#!/bin/sh
# Generates the Python parser of pidlint's Python front end: tree-sitter's
# C runtime (from github.com/tree-sitter/go-tree-sitter) and the
# tree-sitter-python grammar, with c/shim.c, compiled to WebAssembly with
# Debian's clang, lld and wasi-libc, then translated to plain Go by
# github.com/ncruces/wasm2go. The module versions, and so the C sources,
# are this directory's go.mod and go.sum.
#
# Usage: tools/pyparser/gen.sh [OUT.go]   (default: the committed file)
# It writes NOTICE, the C code's licences, beside OUT.go.
# Needs (Debian 12): clang lld wasi-libc libclang-rt-dev-wasm32 binaryen.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../internal/frontend/python/pyparse/internal/tsmodule/module_gen.go}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"
dir() { go mod download -json "$1" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p'; }
ts=$(dir github.com/tree-sitter/go-tree-sitter)
py=$(dir github.com/tree-sitter/tree-sitter-python)
# -ffile-prefix-map keeps the module cache's path out of the output.
clang --target=wasm32-wasi --sysroot=/usr -O2 -mexec-model=reactor \
	-ffile-prefix-map="$ts"=ts -ffile-prefix-map="$py"=py -ffile-prefix-map="$here"=. \
	-I"$ts/include" -I"$ts/src" -I"$py/src" \
	-DNDEBUG -DHAVE_ENDIAN_H -D_POSIX_C_SOURCE=200112L -D_DEFAULT_SOURCE \
	-Wl,--export=malloc -Wl,--strip-all -Wl,-z,stack-size=1048576 -Wl,--initial-memory=4194304 \
	-o "$work/tspython.wasm" c/shim.c "$ts/src/lib.c" "$py/src/parser.c" "$py/src/scanner.c"
wasm-opt -O3 "$work/tspython.wasm" -o "$work/tspython.wasm"
go tool wasm2go -pkg tsmodule -o "$work/module_gen.go" "$work/tspython.wasm"
gofmt -l "$work/module_gen.go" | grep . && { echo "gen.sh: wasm2go's output is not gofmt-clean" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
cp "$work/module_gen.go" "$out"
# The licences of the C code the generated file is made from.
{
	echo "The generated parser in this directory is compiled from the C code below."
	echo "Each part's licence follows its name."
	echo
	echo "== tree-sitter runtime (github.com/tree-sitter/go-tree-sitter, src/)"
	cat "$ts/LICENSE"
	echo
	echo "== tree-sitter-python grammar (github.com/tree-sitter/tree-sitter-python, src/)"
	cat "$py/LICENSE"
	echo
	echo "== wasi-libc (Debian package wasi-libc: its copyright file)"
	cat /usr/share/doc/wasi-libc/copyright
} >"$(dirname "$out")/NOTICE"
