package safeprobe

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// TestSignalOwnerKillSafety is a property test over owner records a lock
// file can hold (valid, reused, from another boot, of a gone process,
// without identity, naming this process, corrupt) and every combination of
// SignalOptions: whatever the record says, a signal goes only to a PID > 0
// whose identity is the recorded one, to a record without identity only
// when AllowUnverified, and to this process only when AllowSelf.
func TestSignalOwnerKillSafety(t *testing.T) {
	var sent []int
	saved := sendSignal
	sendSignal = func(p *os.Process, sig os.Signal) error {
		sent = append(sent, p.Pid)
		return nil
	}
	t.Cleanup(func() { sendSignal = saved })

	path := filepath.Join(t.TempDir(), "daemon.pid")
	l, err := TryAcquire(path, &LockOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()

	self, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	live := startSleeper(t).Process.Pid
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
	reused, otherBoot := liveID, liveID
	reused.StartTime++
	otherBoot.BootID = "00000000-0000-0000-0000-000000000000"
	records := map[string][]byte{
		"live":       withID(liveID),
		"self":       withID(self),
		"reused":     withID(reused),
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
	rng := rand.New(rand.NewPCG(1, 2))
	signalled := map[string]bool{}
	for range 150 {
		name := names[rng.IntN(len(names))]
		opts := &SignalOptions{AllowSelf: rng.IntN(2) == 0, AllowUnverified: rng.IntN(2) == 0}
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
	for _, name := range []string{"live", "self", "bare live"} {
		if !signalled[name] {
			t.Errorf("record %q was never signalled, with any options", name)
		}
	}
	for _, name := range []string{"reused", "other boot", "gone", "zero", "minus one", "wraps to 1", "empty", "json pid 0", "disagrees"} {
		if signalled[name] {
			t.Errorf("record %q was signalled", name)
		}
	}
}
