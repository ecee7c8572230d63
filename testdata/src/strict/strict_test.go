package strict

import (
	"syscall"
	"testing"
)

func TestChild(t *testing.T) {
	if syscall.Kill(1, 0) != nil { // want `PL001: raw liveness probe in a test: syscall.Kill\(pid, 0\) as a liveness test`
		t.Fatal("not running")
	}
}
