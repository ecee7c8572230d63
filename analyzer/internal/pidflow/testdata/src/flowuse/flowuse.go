// Package flowuse calls flowlib: what flowlib does comes as facts.
package flowuse

import (
	"syscall"

	"flowlib"
)

func stop(path string) error {
	pid, err := flowlib.Read(path)
	if err != nil {
		return err
	}
	return flowlib.Term(pid) // want `signal flowlib.Term \(syscall.Kill\) returned by flowlib.Read at flowuse.go:11 \(read from the file path at flowlib.go:20\)`
}

func reload(path string) error {
	var st flowlib.State
	if err := flowlib.Load(path, &st); err != nil {
		return err
	}
	return syscall.Kill(st.Pid, syscall.SIGHUP) // want `signal syscall.Kill returned by flowlib.Load at flowuse.go:20`
}
