module example.com/gcltest

go 1.26.0

require github.com/pidlint/pidlint v0.0.0

require golang.org/x/sys v0.49.0 // indirect

replace github.com/pidlint/pidlint => ../../..
