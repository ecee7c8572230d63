//go:build tools

// The modules whose C sources gen.sh compiles (the generator, wasm2go, is
// a tool of go.mod), pinned with their checksums in go.sum.
package pyparser

import (
	_ "github.com/tree-sitter/go-tree-sitter"
	_ "github.com/tree-sitter/tree-sitter-python/bindings/go"
)
