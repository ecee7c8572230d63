// Package flock is the part of github.com/gofrs/flock the tests use.
package flock

type Flock struct{ path string }

func New(path string) *Flock { return &Flock{path: path} }

func (f *Flock) TryLock() (bool, error) { return false, nil }

func (f *Flock) Unlock() error { return nil }
