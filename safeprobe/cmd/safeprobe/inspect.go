package main

import (
	"context"
	"time"

	"github.com/pidlint/pidlint/safeprobe"
)

// inspectBound bounds the read of the OS's lock table (seconds only with
// hundreds of thousands of locks).
const inspectBound = 30 * time.Second

// freeRereads is how many more times inspect reads a lock that reads as
// free while the process its record names still runs.
const freeRereads = 2

// inspect is safeprobe.InspectTrusted (trusted) or InspectContext of
// path. A free lock whose record's process still runs is read again: a
// holder may release a lock and live on, but on Linux the lock table is
// read a page at a time, and a holder's line can be skipped when lines
// before it go away between two reads (other processes' locks released
// meanwhile), so one reading of "free" is not enough to act on.
func inspect(path string, trusted bool) (safeprobe.Status, error) {
	ctx, cancel := context.WithTimeout(context.Background(), inspectBound)
	defer cancel()
	read := safeprobe.InspectContext
	if trusted {
		read = safeprobe.InspectTrusted
	}
	st, err := read(ctx, path)
	for i := 0; i < freeRereads && err == nil && !st.Held && !st.Corrupt && st.State == safeprobe.Running; i++ {
		time.Sleep(time.Millisecond)
		st, err = read(ctx, path)
	}
	return st, err
}
