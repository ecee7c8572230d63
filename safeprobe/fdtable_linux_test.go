package safeprobe

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFullFDTable runs probes in a child whose fd table is full (EMFILE
// under a lowered RLIMIT_NOFILE): a zombie and a thread ID must not read as
// running, an error must come with Unknown, and once fds are free again the
// identity (with its boot ID) must be readable: a failure is not cached.
func TestFullFDTable(t *testing.T) {
	zombie := startZombie(t)
	tid := startLockChild(t, "thread-id").expect(t, "tid")
	child := childCommand(t, "full-fd-table",
		"SAFEPROBE_TEST_PID="+strconv.Itoa(zombie.Process.Pid), "SAFEPROBE_TEST_TID="+tid)
	out, err := child.Output()
	if err != nil {
		t.Fatalf("full-fd-table child: %v (%s)", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		got[k] = v
	}
	if got["full"] != "EMFILE" {
		t.Fatalf("child could not fill its fd table: %q", out)
	}
	for _, what := range []string{"zombie", "tid", "identity"} {
		state, errText, _ := strings.Cut(got[what], "|")
		switch {
		case state == Running.String():
			t.Errorf("fd table full: %s reads %s; want not running", what, got[what])
		case state == Unknown.String() && errText == "<nil>":
			t.Errorf("fd table full: %s reads unknown without an error", what)
		case state == Unknown.String() && !strings.Contains(errText, "too many open files"):
			t.Errorf("fd table full: %s error %q does not say why", what, errText)
		}
	}
	if !strings.HasPrefix(got["self-full"], "error ") {
		t.Errorf("fd table full: Self = %q; want an error", got["self-full"])
	}
	if !strings.HasPrefix(got["self-after"], "ok pid ") || !strings.Contains(got["self-after"], "boot ") {
		t.Errorf("fds free again: Self = %q; want an identity with its boot", got["self-after"])
	}
}

func init() {
	// full-fd-table lowers RLIMIT_NOFILE, opens files until EMFILE, and
	// prints what the probes say of SAFEPROBE_TEST_PID (a zombie) and
	// SAFEPROBE_TEST_TID (a thread of another process), and Self, then
	// Self again once the files are closed.
	childModes["full-fd-table"] = func() {
		zombie, _ := strconv.Atoi(os.Getenv("SAFEPROBE_TEST_PID"))
		tid, _ := strconv.Atoi(os.Getenv("SAFEPROBE_TEST_TID"))
		lim := unix.Rlimit{Cur: 64, Max: 64}
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
			fmt.Printf("full setrlimit: %v\n", err)
			return
		}
		var fds []int
		for {
			fd, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
			if err == unix.EMFILE {
				fmt.Println("full EMFILE")
				break
			}
			if err != nil {
				fmt.Printf("full %v\n", err)
				return
			}
			fds = append(fds, fd)
		}
		s, err := Probe(zombie)
		fmt.Printf("zombie %v|%v\n", s, err)
		s, err = Probe(tid)
		fmt.Printf("tid %v|%v\n", s, err)
		s, err = Identity{PID: zombie, StartTime: 1}.Probe()
		fmt.Printf("identity %v|%v\n", s, err)
		if _, err := Self(); err != nil {
			fmt.Printf("self-full error %v\n", err)
		} else {
			fmt.Println("self-full ok")
		}
		for _, fd := range fds {
			unix.Close(fd)
		}
		if id, err := Self(); err != nil {
			fmt.Printf("self-after error %v\n", err)
		} else {
			fmt.Printf("self-after ok %v\n", id)
		}
	}
}
