module github.com/pidlint/pidlint/tools/pyparser

go 1.26.0

require (
	github.com/tree-sitter/go-tree-sitter v0.25.0
	github.com/tree-sitter/tree-sitter-python v0.23.6
)

require (
	github.com/mattn/go-pointer v0.0.1 // indirect
	github.com/ncruces/wasm2go v0.4.21 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

tool github.com/ncruces/wasm2go
