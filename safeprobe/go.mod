module github.com/pidlint/pidlint/safeprobe

go 1.21

require golang.org/x/sys v0.22.0
