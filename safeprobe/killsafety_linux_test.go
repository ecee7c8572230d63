package safeprobe

import (
	"context"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestSignalOwnerKillSafety is a property test over owner records a lock
// file can hold (valid, reused, from another boot, of a gone process,
// without identity, naming this process, corrupt), two lock files (one a
// child holds, one this process holds) and every combination of
// SignalOptions: whatever the record says, a signal goes only to a PID > 0
// that holds the lock and whose identity is the recorded one, to a record
// without identity only when AllowUnverified, and to this process only
// when AllowSelf.
func TestSignalOwnerKillSafety(t *testing.T) {
	var sent []int
	pidfds := map[int]int{} // pidfd -> the PID it was opened for
	saved := sys
	sys.pidfdOpen = func(pid int) (int, error) {
		fd, err := saved.pidfdOpen(pid)
		if err == nil {
			pidfds[fd] = pid
		}
		return fd, err
	}
	sys.pidfdSendSignal = func(fd int, sig syscall.Signal) error {
		sent = append(sent, pidfds[fd])
		return nil
	}
	sys.kill = func(pid int, sig syscall.Signal) error {
		if sig != 0 {
			sent = append(sent, pid)
			return nil
		}
		return saved.kill(pid, sig)
	}
	t.Cleanup(func() { sys = saved })
	// A held file's torn record is read again for half a second; here
	// whatever the record says is final.
	tornPause = func(context.Context, time.Duration) error { return nil }
	t.Cleanup(func() { tornPause = sleepCtx })

	dir := t.TempDir()
	selfPath := filepath.Join(dir, "self.pid")
	l, err := TryAcquire(selfPath, &LockOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	childPath := filepath.Join(dir, "child.pid")
	holder := startLockChild(t, "lock-hold-raw", lockPathEnv+"="+childPath, lockContentEnv+"=")
	holder.expect(t, "locked")
	live := holder.cmd.Process.Pid
	holderOf := map[string]int{selfPath: os.Getpid(), childPath: live}
	paths := []string{selfPath, childPath}

	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	liveID, err := Lookup(live)
	if err != nil {
		t.Fatal(err)
	}
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Fatal(err)
	}
	gone := done.Process.Pid
	withID := func(id Identity) []byte {
		return formatRecord(Record{PID: id.PID, Version: recordVersion, Identity: id, HasIdentity: true})
	}
	// A PID reused: recorded with a serial of its own, or, where pidfds
	// had none, with only its start time.
	reused, reusedSerial, otherBoot := liveID, liveID, liveID
	reused.StartTime++
	reused.Serial = 0
	reusedSerial.StartTime++
	reusedSerial.Serial++
	otherBoot.BootID = "00000000-0000-0000-0000-000000000000"
	records := map[string][]byte{
		"live":       withID(liveID),
		"self":       withID(self),
		"reused":     withID(reused),
		"reused too": withID(reusedSerial),
		"other boot": withID(otherBoot),
		"gone":       withID(Identity{PID: gone, StartTime: 1, BootID: self.BootID}),
		"bare live":  formatRecord(Record{PID: live}),
		"bare self":  formatRecord(Record{PID: self.PID}),
		"zero":       []byte("0\n"),
		"minus one":  []byte("-1\n"),
		"wraps to 1": []byte("4294967297\n"),
		"empty":      nil,
		"json pid 0": []byte("0\n{\"v\":1,\"pid\":0}\n"),
		"disagrees":  []byte("1\n{\"v\":1,\"pid\":" + strconv.Itoa(live) + "}\n"),
	}
	names := make([]string, 0, len(records))
	for name := range records {
		names = append(names, name)
	}
	sort.Strings(names)
	rng := rand.New(rand.NewSource(1))
	signalled := map[string]bool{}
	for i := 0; i < 300; i++ {
		name := names[rng.Intn(len(names))]
		path := paths[rng.Intn(len(paths))]
		opts := &SignalOptions{AllowSelf: rng.Intn(2) == 0, AllowUnverified: rng.Intn(2) == 0}
		if err := os.WriteFile(path, records[name], 0o600); err != nil {
			t.Fatal(err)
		}
		sent = sent[:0]
		err := SignalOwnerWith(path, syscall.SIGTERM, opts)
		switch {
		case len(sent) > 1:
			t.Fatalf("%s: signalled %v", name, sent)
		case len(sent) == 0:
			if err == nil {
				t.Fatalf("%s %+v: no signal sent and no error", name, *opts)
			}
			continue
		case err != nil:
			t.Fatalf("%s %+v: signalled %d and returned %v", name, *opts, sent[0], err)
		}
		pid := sent[0]
		signalled[name] = true
		rec, _ := parseRecord(records[name])
		switch {
		case pid <= 0:
			t.Fatalf("%s: signalled pid %d", name, pid)
		case pid != holderOf[path]:
			t.Fatalf("%s in %s: signalled pid %d, which does not hold the lock (%d does)", name, filepath.Base(path), pid, holderOf[path])
		case pid == os.Getpid() && !opts.AllowSelf:
			t.Fatalf("%s: signalled itself without AllowSelf", name)
		case !rec.HasIdentity && !opts.AllowUnverified:
			t.Fatalf("%s: signalled pid %d without an identity to verify", name, pid)
		case rec.HasIdentity:
			if now, err := Lookup(pid); err != nil || !now.Same(rec.Identity) {
				t.Fatalf("%s: signalled pid %d, now %v, for recorded %v", name, pid, now, rec.Identity)
			}
		}
	}
	// The property holds trivially if nothing is ever signalled.
	for _, name := range []string{"live", "self", "bare live", "bare self"} {
		if !signalled[name] {
			t.Errorf("record %q was never signalled, with any options and either file", name)
		}
	}
	for _, name := range []string{"reused", "reused too", "other boot", "gone", "zero", "minus one", "wraps to 1", "empty", "json pid 0", "disagrees"} {
		if signalled[name] {
			t.Errorf("record %q was signalled", name)
		}
	}
}
