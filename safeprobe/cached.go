package safeprobe

import "sync/atomic"

// cached holds a value once it has been read without an error: what the
// OS says once and never changes while the process runs (this process's
// identity, the boot ID, its time namespace's offset, the host name as
// records carry it). A failure to read it (a full descriptor table, say)
// is not kept: the next call reads again.
type cached[T any] struct{ p atomic.Pointer[T] }

// get returns the value, reading it with read until that succeeds.
func (c *cached[T]) get(read func() (T, error)) (T, error) {
	if v := c.p.Load(); v != nil {
		return *v, nil
	}
	v, err := read()
	if err == nil {
		c.p.Store(&v)
	}
	return v, err
}
