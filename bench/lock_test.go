package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/nightlyone/lockfile"

	"github.com/pidlint/pidlint/safeprobe"
)

// lockDir is a tmpfs where there is one, so the numbers are the lock's
// own cost and not the disk's.
func lockDir(b *testing.B) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		dir, err := os.MkdirTemp("/dev/shm", "pidlint-bench")
		if err == nil {
			b.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return b.TempDir()
}

func BenchmarkLock(b *testing.B) {
	b.Run("uncontended/safeprobe", func(b *testing.B) { benchSafeprobe(b, false) })
	b.Run("uncontended/safeprobe-nosync", func(b *testing.B) { benchSafeprobe(b, true) })
	b.Run("uncontended/safeprobe-lockdir", func(b *testing.B) {
		lock, err := lockInDir(lockDir(b))
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := lock(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uncontended/gofrs-flock", func(b *testing.B) {
		path := filepath.Join(lockDir(b), "x.lock")
		for b.Loop() {
			fl := flock.New(path)
			if ok, err := fl.TryLock(); !ok || err != nil {
				b.Fatal(ok, err)
			}
			if err := fl.Unlock(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uncontended/nightlyone-lockfile", func(b *testing.B) {
		lf, err := lockfile.New(filepath.Join(lockDir(b), "x.pid"))
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := lf.TryLock(); err != nil {
				b.Fatal(err)
			}
			if err := lf.Unlock(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func benchSafeprobe(b *testing.B, noSync bool) {
	path := filepath.Join(lockDir(b), "x.pid")
	opts := &safeprobe.LockOptions{NoSync: noSync}
	for b.Loop() {
		l, err := safeprobe.TryAcquire(path, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Release(); err != nil {
			b.Fatal(err)
		}
	}
}

// contenders is how many processes compete for one lock.
const contenders = 8

// BenchmarkLockContended has 8 processes take and release one lock in turn
// and reports the latency of each acquisition, from asking to holding.
func BenchmarkLockContended(b *testing.B) {
	for _, impl := range []string{"safeprobe", "gofrs-flock"} {
		b.Run(impl, func(b *testing.B) {
			rounds := max(b.N/contenders, 1)
			path := filepath.Join(lockDir(b), "x.pid")
			exe, err := os.Executable()
			if err != nil {
				b.Fatal(err)
			}
			cmds := make([]*exec.Cmd, contenders)
			outs := make([]*strings.Builder, contenders)
			for i := range cmds {
				outs[i] = new(strings.Builder)
				cmds[i] = exec.Command(exe, "-test.run=^$")
				cmds[i].Env = append(os.Environ(), "BENCH_CONTENDER="+impl+","+path+","+strconv.Itoa(rounds))
				cmds[i].Stdout = outs[i]
				cmds[i].Stderr = os.Stderr
			}
			b.ResetTimer()
			for _, c := range cmds {
				if err := c.Start(); err != nil {
					b.Fatal(err)
				}
			}
			var lat []float64
			for i, c := range cmds {
				if err := c.Wait(); err != nil {
					b.Fatalf("contender: %v", err)
				}
				for f := range strings.FieldsSeq(outs[i].String()) {
					v, _ := strconv.ParseFloat(f, 64)
					lat = append(lat, v)
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
			b.ReportMetric(p50, "p50-µs")
			b.ReportMetric(p99, "p99-µs")
			fmt.Printf("contended %s: %d processes × %d rounds, acquire latency p50 %.0f µs, p99 %.0f µs\n", impl, contenders, rounds, p50, p99)
		})
	}
}

// lockInDir returns one TryAcquire+Release of a key in a LockDir made in
// dir, without fsync: the directories above it were walked once, by
// NewLockDir.
func lockInDir(dir string) (func() error, error) {
	d, err := safeprobe.NewLockDir(dir)
	if err != nil {
		return nil, err
	}
	return func() error {
		l, err := d.TryAcquire("x", &safeprobe.LockOptions{NoSync: true})
		if err != nil {
			return err
		}
		return l.Release()
	}, nil
}

// lockOnce is one TryAcquire+Release (or its peer's), by implementation,
// as BenchmarkLock's uncontended cases do it.
var lockOnce = map[string]func(path string) error{
	"safeprobe": func(path string) error {
		l, err := safeprobe.TryAcquire(path, &safeprobe.LockOptions{NoSync: true})
		if err != nil {
			return err
		}
		return l.Release()
	},
	"gofrs-flock": func(path string) error {
		fl := flock.New(path)
		if ok, err := fl.TryLock(); !ok || err != nil {
			return fmt.Errorf("TryLock: %v, %v", ok, err)
		}
		return fl.Unlock()
	},
}

// TestMain runs a contender instead of the tests when BENCH_CONTENDER is
// set: it takes the lock rounds times, holding it briefly, and prints each
// acquisition's latency in microseconds. With BENCH_SYSCALLS=impl,path,n
// it takes and releases the lock n times (lockOnce) and exits, for
// bench/run.sh to count the system calls under strace -c.
func TestMain(m *testing.M) {
	if spec := os.Getenv("BENCH_SYSCALLS"); spec != "" {
		parts := strings.Split(spec, ",")
		n, _ := strconv.Atoi(parts[2])
		lock := func() error { return lockOnce[parts[0]](parts[1]) }
		if parts[0] == "safeprobe-lockdir" {
			var err error
			if lock, err = lockInDir(filepath.Dir(parts[1])); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		for range n {
			if err := lock(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	spec := os.Getenv("BENCH_CONTENDER")
	if spec == "" {
		os.Exit(m.Run())
	}
	parts := strings.Split(spec, ",")
	impl, path := parts[0], parts[1]
	rounds, _ := strconv.Atoi(parts[2])
	for range rounds {
		t0 := time.Now()
		var release func() error
		switch impl {
		case "safeprobe":
			l, err := safeprobe.Acquire(context.Background(), path, &safeprobe.LockOptions{NoSync: true})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			release = l.Release
		case "gofrs-flock":
			fl := flock.New(path)
			if err := fl.Lock(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			release = fl.Unlock
		}
		fmt.Printf("%.1f ", float64(time.Since(t0).Nanoseconds())/1e3)
		time.Sleep(100 * time.Microsecond) // the critical section
		if err := release(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(0)
}
