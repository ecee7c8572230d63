module github.com/pidlint/pidlint/tools/golangci

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/pidlint/pidlint v0.0.0
	golang.org/x/tools v0.52.0
)

replace github.com/pidlint/pidlint => ../..
