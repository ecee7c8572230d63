package safeprobe

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestWithOwnerProcess checks that the action runs with the verified
// holder, that its error is returned, and that a record of another
// process (Owner) is refused before it runs.
func TestWithOwnerProcess(t *testing.T) {
	path := filepath.Join(lockTestDir(t), "owner.pid")
	holder := startLockChild(t, "lock-hold", lockPathEnv+"="+path)
	pid, _ := strconv.Atoi(holder.expect(t, "locked "))
	var got int
	if err := WithOwnerProcess(path, nil, func(p *os.Process) error { got = p.Pid; return nil }); err != nil {
		t.Fatal(err)
	}
	if got != pid {
		t.Errorf("the action ran with pid %d, the holder is %d", got, pid)
	}
	mine := errors.New("the action's error")
	if err := WithOwnerProcess(path, nil, func(*os.Process) error { return mine }); !errors.Is(err, mine) {
		t.Errorf("WithOwnerProcess returned %v, want the action's error", err)
	}
	st, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	other := st.Record.Identity
	other.StartTime++
	ran := false
	err = WithOwnerProcess(path, &SignalOptions{Owner: &other}, func(*os.Process) error { ran = true; return nil })
	if !errors.Is(err, ErrNotHeld) || ran {
		t.Errorf("WithOwnerProcess(Owner: another process): %v, ran %v; want ErrNotHeld, not run", err, ran)
	}
	holder.finish(t)
}
