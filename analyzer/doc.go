// Package analyzer defines pidlint, an Analyzer that reports unsafe
// process-liveness checks and suggests fixes that route them through
// safeprobe.
//
// # Analyzer pidlint
//
// pidlint: report PID liveness checks that are wrong on some OS
//
// Deciding whether a process is alive from its PID goes wrong in ways that
// depend on the OS: kill(pid, 0) reads another user's process (EPERM) as
// dead and a zombie or a recycled PID as alive; Process.Signal(0) always
// fails on Windows; os.FindProcess never fails on Unix; /proc/<pid> is not
// there on macOS, Windows or a default BSD. Two rules look at the steps
// around the probe: a signal sent to a PID read from a file, whose process
// may be long gone and its number reused (PL007), and a PID file that,
// left by a crash, blocks every restart (PL008). Each diagnostic names the
// rule, what is wrong, and the OSes the file builds for, from its name
// suffix, its //go:build line and runtime.GOOS tests around the code.
//
// Rules:
//
//	PL001 kill-zero              kill(pid, 0) used as a liveness test
//	PL002 signal-zero            Process.Signal(0) used as a liveness test
//	PL003 findprocess-liveness   os.FindProcess used as a liveness test
//	PL004 proc-stat              /proc/<pid> existence used as a liveness test
//	PL005 shell-probe            a shell command used as a liveness test
//	PL006 wrapper                a kill or Signal wrapper called with signal 0
//	PL007 signal-unverified-pid  a signal sent to a PID read from storage, unverified
//	PL008 pidfile-stale-block    a PID file as the single-instance guard, without a kernel lock
//
// Code that already tells EPERM from ESRCH (errors.Is(err, syscall.EPERM),
// os.IsPermission, counting only kill's ESRCH or Process.Signal's
// os.ErrProcessDone as dead) is not reported; ESRCH after Process.Signal,
// which never returns it, is. Suggested fixes replace the probe with safeprobe.Check,
// safeprobe.CheckProcess or safeprobe.Alive, add the import and remove the
// imports the edit leaves unused.
//
// Flags: -strict also reports every raw probe that bypasses safeprobe
// (category raw-probe), for code that routes all probes through it;
// -safeprobe=path names a vendored copy for the fixes; -disable=PL004,…
// turns rules off, named by ID or name. A finding is suppressed by
// "//pidlint:ignore PL00N reason" on its line or the line above, and a
// rule in a whole file by "//pidlint:file-ignore PL00N reason" anywhere in
// it; both take rule IDs or names, comma-separated. A directive with no
// reason or an unknown rule is reported with the category bad-ignore
// (BadIgnore), and so is a //pidlint:ignore that suppresses nothing.
//
// A diagnostic's Category is its rule's ID, or raw-probe for a -strict
// finding, whose URL then names the rule's section in docs/rules.md;
// RuleOf reads either. Drivers that configure pidlint in code call New,
// and check rule lists from users with ParseRules.
//
// Files that do not build on the host (a //go:build windows file on Linux)
// get the checks that need no type information: Process.Signal(0) in a file
// that builds for windows is reported wherever pidlint runs. Packages that
// do not type-check are skipped, as by every analysis driver.
package analyzer
