module example.com/gcltest

go 1.26.0

require github.com/pidlint/pidlint/safeprobe v0.0.0

require golang.org/x/sys v0.22.0 // indirect

replace github.com/pidlint/pidlint/safeprobe => ../../../safeprobe
