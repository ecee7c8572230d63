package bench

import (
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/shirou/gopsutil/v4/process"

	"github.com/pidlint/pidlint/safeprobe"
)

// probeCase is a PID in the state a probe is asked about.
type probeCase struct {
	name string
	pid  func(b *testing.B) int
}

var probeCases = []probeCase{
	{"live", func(b *testing.B) int { return startChild(b).Pid }},
	{"gone", goneChild},
	{"otheruser", otherUserChild},
}

func startChild(b *testing.B, argv ...string) *os.Process {
	b.Helper()
	if len(argv) == 0 {
		argv = []string{"sleep", "600"}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd.Process
}

func goneChild(b *testing.B) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	return cmd.Process.Pid
}

// otherUserChild is a process of another user: for an unprivileged
// benchmark PID 1, for root a sleeper run as nobody.
func otherUserChild(b *testing.B) int {
	if os.Geteuid() != 0 {
		return 1
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		b.Skip("setpriv not installed")
	}
	return startChild(b, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "600").Pid
}

func benchProbe(b *testing.B, probe func(pid int)) {
	for _, c := range probeCases {
		b.Run(c.name, func(b *testing.B) {
			pid := c.pid(b)
			for b.Loop() {
				probe(pid)
			}
		})
	}
}

func BenchmarkKill(b *testing.B) {
	benchProbe(b, func(pid int) { _ = syscall.Kill(pid, 0) })
}

func BenchmarkFindProcessSignal(b *testing.B) {
	benchProbe(b, func(pid int) {
		p, err := os.FindProcess(pid)
		if err == nil {
			_ = p.Signal(syscall.Signal(0))
			p.Release()
		}
	})
}

func BenchmarkGopsutilPidExists(b *testing.B) {
	benchProbe(b, func(pid int) { _, _ = process.PidExists(int32(pid)) })
}

func BenchmarkAlive(b *testing.B) {
	benchProbe(b, func(pid int) { _ = safeprobe.Alive(pid) })
}

func BenchmarkProbe(b *testing.B) {
	benchProbe(b, func(pid int) { _, _ = safeprobe.Probe(pid) })
}

func BenchmarkIdentityProbe(b *testing.B) {
	for _, c := range probeCases {
		b.Run(c.name, func(b *testing.B) {
			pid := c.pid(b)
			id, err := safeprobe.Lookup(pid)
			if err != nil {
				id = safeprobe.Identity{PID: pid, StartTime: 1}
			}
			for b.Loop() {
				_, _ = id.Probe()
			}
		})
	}
}
