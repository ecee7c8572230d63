package safeprobe

import (
	"sync"
	"time"
)

// staleWaits remembers, per lock file and record, when TryAcquire first
// found the lock held under a record whose holder is gone, so that the wait
// for Windows to release a dead holder's lock is spent once: a lock still
// held staleReleaseWait later is held by someone else, and every later
// call reports it at once rather than stalling again. An entry not met for
// staleForget is dropped.
var staleWaits struct {
	sync.Mutex
	seen map[staleKey]staleSeen
}

type staleKey struct {
	file  fileKey
	pid   int
	start uint64
}

type staleSeen struct{ first, last time.Time }

const staleForget = time.Minute

// staleWaitEnd is when TryAcquire stops waiting for the lock on the file k
// names, held under rec, whose holder is gone.
func staleWaitEnd(k fileKey, rec Record) time.Time {
	now := time.Now()
	staleWaits.Lock()
	defer staleWaits.Unlock()
	for key, seen := range staleWaits.seen {
		if now.Sub(seen.last) > staleForget {
			delete(staleWaits.seen, key)
		}
	}
	if staleWaits.seen == nil {
		staleWaits.seen = make(map[staleKey]staleSeen)
	}
	key := staleKey{file: k, pid: rec.PID, start: rec.Identity.StartTime}
	seen, ok := staleWaits.seen[key]
	if !ok {
		seen.first = now
	}
	seen.last = now
	staleWaits.seen[key] = seen
	return seen.first.Add(staleReleaseWait)
}

// holderGone reports whether the process a record names has certainly
// exited.
func holderGone(r Record) bool {
	s, _ := recordState(r)
	return s == NotFound || s == Reused
}
