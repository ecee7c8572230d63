package safeprobe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What a test needs of the machine: a command, a loop-mounted file
// system. Where it is missing the test is skipped, saying what to install;
// in CI (CI=true), where .ci/run installs it, it fails.

// unavailable skips the test for what the machine lacks, or fails it in
// CI.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true, and "+format, args...)
	}
	t.Skipf(format, args...)
}

// facility is the path of command name, from package pkg, looked for in
// PATH and the system's sbin directories.
func facility(t *testing.T, name, pkg string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, dir := range []string{"/usr/sbin", "/sbin", "/usr/bin", "/bin"} {
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p
		}
	}
	unavailable(t, "no %s (install %s)", name, pkg)
	return ""
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// loopBtrfs makes a btrfs file system in a file and mounts it through a
// loop device, for the test; it is unmounted and removed when the test
// ends. The mount point is mode 0755.
func loopBtrfs(t *testing.T) string {
	t.Helper()
	mkfs := facility(t, "mkfs.btrfs", "btrfs-progs")
	dir := t.TempDir()
	img, mnt := filepath.Join(dir, "btrfs.img"), filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(img)
	if err == nil {
		err = f.Truncate(128 << 20)
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if out, err := runCmd(mkfs, "-q", img); err != nil {
		unavailable(t, "mkfs.btrfs: %v (%s)", err, out)
	}
	if out, err := runCmd("mount", "-t", "btrfs", "-o", "loop", img, mnt); err != nil {
		unavailable(t, "cannot loop-mount a btrfs file system here: %v (%s)", err, out)
	}
	t.Cleanup(func() {
		// The test's children may still be closing files there.
		for i := 0; ; i++ {
			out, err := runCmd("umount", mnt)
			if err == nil {
				return
			}
			if i == 50 || !strings.Contains(out, "busy") {
				t.Errorf("umount %s: %v (%s)", mnt, err, out)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	os.Chmod(mnt, 0o755)
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	return mnt
}
