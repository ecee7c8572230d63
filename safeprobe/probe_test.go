package safeprobe

import (
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// invalidPIDs are values a corrupt PID file produces: kill(0) is the
// caller's process group, kill(-1) every process, and os.FindProcess
// truncates to int32, so 1<<32+1 is PID 1 and 1<<32-1 is -1.
// The values past int32 exist only where int has 64 bits.
var invalidPIDs = func() []int {
	pids := []int{0, -1, -2, math.MinInt, math.MaxInt}
	if strconv.IntSize == 64 {
		for _, pid := range []int64{math.MaxInt32 + 1, 1<<32 - 1, 1<<32 + 1} {
			pids = append(pids, int(pid))
		}
	}
	return pids
}()

func TestValidatePIDRejectsWhatNoProcessHas(t *testing.T) {
	for _, pid := range invalidPIDs {
		if err := ValidatePID(pid); !errors.Is(err, ErrInvalidPID) {
			t.Errorf("ValidatePID(%d) = %v, want ErrInvalidPID", pid, err)
		}
	}
	for _, pid := range []int{1, os.Getpid(), MaxPID} {
		if err := ValidatePID(pid); err != nil {
			t.Errorf("ValidatePID(%d) = %v, want nil", pid, err)
		}
	}
}

func TestInvalidPIDsAreRejectedByEveryEntryPoint(t *testing.T) {
	for _, pid := range invalidPIDs {
		if s, err := Probe(pid); s != Unknown || !errors.Is(err, ErrInvalidPID) {
			t.Errorf("Probe(%d) = %v, %v; want Unknown, ErrInvalidPID", pid, s, err)
		}
		if Alive(pid) {
			t.Errorf("Alive(%d) = true", pid)
		}
		err := Check(pid)
		if !errors.Is(err, ErrInvalidPID) || errors.Is(err, os.ErrProcessDone) {
			t.Errorf("Check(%d) = %v; want ErrInvalidPID and not ErrProcessDone", pid, err)
		}
		if err := CheckProcess(&os.Process{Pid: pid}); !errors.Is(err, ErrInvalidPID) {
			t.Errorf("CheckProcess(Pid: %d) = %v; want ErrInvalidPID", pid, err)
		}
		if _, err := Lookup(pid); !errors.Is(err, ErrInvalidPID) {
			t.Errorf("Lookup(%d) = %v; want ErrInvalidPID", pid, err)
		}
		if s, err := (Identity{PID: pid}).Probe(); s != Unknown || !errors.Is(err, ErrInvalidPID) {
			t.Errorf("Identity{PID: %d}.Probe() = %v, %v; want Unknown, ErrInvalidPID", pid, s, err)
		}
	}
	if err := CheckProcess(nil); !errors.Is(err, ErrInvalidPID) {
		t.Errorf("CheckProcess(nil) = %v; want ErrInvalidPID", err)
	}
}

func TestSelfIsRunning(t *testing.T) {
	if s, err := Probe(os.Getpid()); s != Running || err != nil {
		t.Fatalf("Probe(self) = %v, %v; want running", s, err)
	}
	if err := Check(os.Getpid()); err != nil {
		t.Fatalf("Check(self) = %v", err)
	}
	self, err := Self()
	if err != nil {
		t.Fatalf("Self: %v", err)
	}
	again, err := Lookup(os.Getpid())
	if err != nil || !self.Same(again) || self.StartTime == 0 {
		t.Fatalf("Self() = %v, Lookup(self) = %v, %v; want the same non-zero identity", self, again, err)
	}
	if s, err := self.Probe(); s != Running || err != nil {
		t.Fatalf("Self().Probe() = %v, %v", s, err)
	}
}

func TestProcessErrorMatchesWhatKillCallersTest(t *testing.T) {
	for _, s := range []State{NotFound, Zombie, Reused} {
		err := error(&ProcessError{PID: 42, State: s})
		if !errors.Is(err, os.ErrProcessDone) || errNoSuchProcess != nil && !errors.Is(err, errNoSuchProcess) {
			t.Errorf("%v: errors.Is(ErrProcessDone, ESRCH) false: %v", s, err)
		}
	}
	cause := errors.New("input/output error")
	unknown := &ProcessError{PID: 42, State: Unknown, Err: cause}
	if errors.Is(unknown, os.ErrProcessDone) || errors.Is(unknown, errNoSuchProcess) || !errors.Is(unknown, cause) {
		t.Errorf("unknown state error matches the wrong errors: %v", unknown)
	}
}

func TestStateString(t *testing.T) {
	want := map[State]string{Unknown: "unknown", Running: "running", Zombie: "zombie", NotFound: "not found", Reused: "reused", 99: "State(99)"}
	for s, w := range want {
		if s.String() != w {
			t.Errorf("State(%d).String() = %q, want %q", s, s.String(), w)
		}
	}
}

func TestParsePID(t *testing.T) {
	for in, want := range map[string]int{"1": 1, "4242\n": 4242, " 77 \r\n": 77, "2147483647": MaxPID} {
		if got, err := ParsePID(in); got != want || err != nil {
			t.Errorf("ParsePID(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "\n", "0", "-1", "+5", "0x10", "1e3", "12 34", "99999999999", "2147483648", "4294967297", "1\x00", "٣"} {
		if pid, err := ParsePID(in); pid != 0 || !errors.Is(err, ErrInvalidPID) {
			t.Errorf("ParsePID(%q) = %d, %v; want 0, ErrInvalidPID", in, pid, err)
		}
	}
}

func FuzzParsePID(f *testing.F) {
	for _, s := range []string{"1", "4242\n", "0", "-1", "+1", " 9 ", "4294967297", "18446744073709551617", "0001", "1\r\n", "1\n2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pid, err := ParsePID(s)
		if err != nil {
			if pid != 0 || !errors.Is(err, ErrInvalidPID) {
				t.Fatalf("ParsePID(%q) = %d, %v", s, pid, err)
			}
			return
		}
		if ValidatePID(pid) != nil {
			t.Fatalf("ParsePID(%q) = %d, which ValidatePID refuses", s, pid)
		}
		// What was accepted is that decimal number and blanks, nothing else.
		if again, err := ParsePID(strconv.Itoa(pid)); again != pid || err != nil {
			t.Fatalf("ParsePID(%q) = %d, but ParsePID(%q) = %d, %v", s, pid, strconv.Itoa(pid), again, err)
		}
		if strings.TrimLeft(strings.Trim(s, " \t\r\n"), "0") != strconv.Itoa(pid) {
			t.Fatalf("ParsePID(%q) = %d from other characters", s, pid)
		}
	})
}
