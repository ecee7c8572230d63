package safeprobe

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"time"
)

// Acquire takes the lock at path, waiting until it is free or ctx ends. It
// tries once even if ctx has already ended, then retries TryAcquire with a
// jittered exponential backoff (see LockOptions); errors other than
// ErrLocked end it at once. When ctx ends first, the error wraps both
// ctx's error and ErrLocked.
func Acquire(ctx context.Context, path string, opts *LockOptions) (*Lock, error) {
	return acquire(ctx, pathOf(path), opts)
}

func acquire(ctx context.Context, p lockPath, opts *LockOptions) (*Lock, error) {
	o := opts.withDefaults()
	wait := o.MinBackoff
	var timer *time.Timer
	for {
		l, err := tryAcquire(ctx, p, &o)
		if err == nil || !errors.Is(err, ErrLocked) {
			return l, err
		}
		if ctx.Err() != nil {
			return nil, waitEnded(p.path, ctx.Err(), err)
		}
		d := wait/2 + time.Duration(rand.Int63n(int64(wait/2+1)))
		if timer == nil {
			timer = time.NewTimer(d)
			defer timer.Stop()
		} else {
			timer.Reset(d)
		}
		select {
		case <-ctx.Done():
			return nil, waitEnded(p.path, ctx.Err(), err)
		case <-timer.C:
		}
		wait = min(2*wait, o.MaxBackoff)
	}
}

// waitEnded is Acquire's error when ctx ends: it wraps ctx's error and
// ErrLocked with the holder's PID from locked, TryAcquire's last error.
func waitEnded(path string, ctxErr, locked error) error {
	pid := 0
	if le := (*LockError)(nil); errors.As(locked, &le) {
		pid = le.PID
	}
	return &LockError{Op: "acquire", Path: path, PID: pid,
		Err: fmt.Errorf("%w while waiting: %w", ctxErr, ErrLocked)}
}

// sleepCtx sleeps for d, or until ctx ends, and returns ctx's error.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
