package analyzer

import "github.com/pidlint/pidlint/analyzer/internal/calls"

// This file holds the source pre-filters drivers call before they load a
// package: cheap answers, from a file's bytes and tokens, to whether the
// analyzer could find anything there. Both are built from the same
// classification of calls the rules use (package calls), so a call a rule
// starts to look at is seen by the filters too. TestMayReportAcceptsFindings
// and TestMayExportFactsAcceptsFacts hold them against every testdata
// package, TestPrefilterCases against look-alikes.

// reportFilter accepts a file that calls what a rule reports, with the
// names and strings that make the call a probe.
var reportFilter = calls.NewFilter(
	calls.Clause{Called: calls.Kill | calls.ProcessKill | calls.ThirdPartySignal},          // PL001, PL007: kill(2), Process.Kill, gopsutil's Terminate
	calls.Clause{Called: calls.ProcessSignal},                                              // PL002, PL007: Process.Signal(sig)
	calls.Clause{Called: calls.FindProcess},                                                // PL003
	calls.Clause{Called: calls.SyscallKill, Needs: calls.SysKillName},                      // PL001: Syscall(SYS_KILL, …)
	calls.Clause{Called: calls.ErrorText, Needs: calls.GoneLiteral},                        // PL001, PL002: err.Error() == "no such process"
	calls.Clause{Called: calls.PathProbe, Needs: calls.ProcLiteral},                        // PL004: os.Stat("/proc/" + pid)
	calls.Clause{Called: calls.Command, Needs: calls.ProgramLiteral},                       // PL005, PL007: exec.Command("kill", "-0", …), exec.Command("kill", pid)
	calls.Clause{Called: calls.CreateFile, Needs: calls.ExclName},                          // PL008: os.OpenFile(pidFile, O_CREATE|O_EXCL, …)
	calls.Clause{Called: calls.StatFile, Needs: calls.PIDName},                             // PL008: os.Stat(pidFile)
	calls.Clause{Called: calls.SafeAlive | calls.SafeCheck, Needs: calls.SafeprobeLiteral}, // PL008: safeprobe.Alive(pid) refusing the start
	calls.Clause{Needs: calls.LivenessCall},                                                // PL008: isRunning(pid), PidExists(pid)
	calls.Clause{Needs: calls.IgnoreDirective},                                             // a //pidlint:ignore that may match nothing
)

// MayReport reports whether the analyzer may report anything in a Go file
// with the source src, from the file's tokens alone: whether it calls
// what a rule looks at (kill, Process.Signal and Kill, os.FindProcess;
// Syscall with SYS_KILL; err.Error() beside a gone process's message;
// os.Stat and kin beside a "/proc" string; exec.Command beside a probe
// program's name; os.OpenFile beside O_EXCL; os.Stat beside a PID's name;
// a function whose name promises "alive") or holds a //pidlint:ignore.
// A driver that builds a package for one GOOS can skip another GOOS's
// build of it when MayReport rejects every file only that build has.
//
// What the file does not show is not seen: a call of a function whose
// facts make it a probe or a signal (a wrapper declared in another
// package or file), and names, constants and strings declared in another
// file. It costs a pass over the bytes and a few substring searches for
// most files, and a scan of the tokens for the rest; it never parses.
func MayReport(src []byte) bool { return reportFilter.Match(src) }

// factFilter accepts a package that may export a fact: it calls kill(2)
// or Signal (wrappers, and functions that signal their PID parameter), or
// reads a file and names a PID or a process, or returns an integer parse
// as it is (functions that return a stored PID).
var factFilter = calls.NewFilter(
	calls.Clause{Called: calls.Kill | calls.ProcessKill | calls.ThirdPartySignal | calls.ThirdPartyIdentity},
	calls.Clause{Called: calls.FindProcess | calls.Getpid},
	calls.Clause{Called: calls.SafeAlive | calls.SafeCheck, Needs: calls.SafeprobeLiteral},
	calls.Clause{Called: calls.SyscallKill, Needs: calls.SysKillName},
	calls.Clause{Called: calls.Command, Needs: calls.ProgramLiteral},
	calls.Clause{Called: calls.ProcessSignal},
	calls.Clause{Called: calls.ReadFile | calls.SafeInspect, Needs: calls.PIDName},
	calls.Clause{Called: calls.ReadFile | calls.SafeInspect, Needs: calls.ProcessName},
	calls.Clause{Called: calls.ReadFile | calls.SafeInspect, Needs: calls.IntParse},
)

// MayExportFacts reports whether a package whose Go files (for one build)
// have the sources srcs may export an analysis fact, from their tokens
// alone: whether they call kill or Process.Signal or Kill (a wrapper of a
// probe, a function that signals its parameter), gopsutil's Terminate,
// Kill, SendSignal, Name, Exe, Cmdline or CreateTime (a signal, an
// identity check), os.FindProcess or safeprobe.Alive and Check (a probe
// whose answer a function returns), os.Getpid (a PID file written), kill,
// pkill or taskkill run by exec.Command, or read a file (os.Open,
// ReadFile, OpenFile, safeprobe.Inspect) and either name a PID or an
// os.Process or return an integer parse as it is ("return
// strconv.Atoi(…)"): a function that returns a stored PID. Pass every
// file of the package: the read may be in one file and the PID's name in
// another. Not seen: a function that returns, under no PID's name, an
// integer another decoder gives straight from the file's data (return
// r.ReadByte()).
//
// It assumes that no import of the package exports facts: a package that
// imports one may wrap its wrappers whatever its own source, so a driver
// checks its imports first (go vet hands it their facts). A driver that
// only needs a package's types may skip its function bodies, and the
// analyzer's run, when MayExportFacts rejects it. It never parses.
func MayExportFacts(srcs ...[]byte) bool { return factFilter.Match(srcs...) }
