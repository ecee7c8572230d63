// Package shellcmd knows the command lines that ask whether a PID is
// alive (kill -0, ps -p, pgrep, pkill -0, lsof -p, tasklist /FI "PID eq
// N"), what is wrong with each, and the programs that probe or signal a
// process by PID. Every front end that sees a command line - Go's
// exec.Command, a shell script, Python's subprocess - reads it here, so
// that a command means the same in every language.
package shellcmd

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// A Probe is a command line that asks whether a PID is alive.
type Probe uint8

// The probes.
const (
	NoProbe     Probe = iota
	KillZero          // kill -0 N
	PsPID             // ps -p N
	Pgrep             // pgrep NAME (not -P, which lists children)
	PkillZero         // pkill -0 NAME
	LsofPID           // lsof -p N
	TasklistPID       // tasklist /FI "PID eq N"
)

// probeInfo is what messages say of a probe.
var probeInfo = map[Probe]struct {
	what, flaw string
	windows    bool
}{
	KillZero:    {what: "kill -0", flaw: "has kill(2)'s flaws: EPERM reads as dead, a zombie as alive"},
	PsPID:       {what: "ps -p", flaw: "lists zombies as processes"},
	Pgrep:       {what: "pgrep", flaw: "matches names, not a process, and lists zombies"},
	PkillZero:   {what: "pkill -0", flaw: "has kill(2)'s flaws and matches names"},
	LsofPID:     {what: "lsof -p", flaw: "answers through its exit status, which also fails for other reasons"},
	TasklistPID: {what: `tasklist /FI "PID eq N"`, flaw: "exits 0 whether or not the PID exists", windows: true},
}

// What names the probe as messages do: "kill -0".
func (p Probe) What() string { return probeInfo[p].what }

// Flaw says what is wrong with the probe on every OS where it runs.
func (p Probe) Flaw() string { return probeInfo[p].flaw }

// Windows reports whether the program is Windows's; the others exist on
// Unix only.
func (p Probe) Windows() bool { return probeInfo[p].windows }

// ByExitStatus reports whether the program answers through its exit
// status alone, so that it is a probe only when that status decides.
func (p Probe) ByExitStatus() bool { return p == Pgrep || p == LsofPID }

// probes are the probe programs by name, as a command's first word
// names them.
var probes = map[string]Probe{
	"kill": KillZero, "ps": PsPID, "pgrep": Pgrep, "pkill": PkillZero, "lsof": LsofPID, "tasklist": TasklistPID,
}

// Programs are the programs that probe or signal a process by PID, as a
// word of a command line names them: the probes (tasklist probes only
// with its PID filter, TasklistFilter) and taskkill, which signals.
var Programs = []string{"kill", "ps", "pgrep", "pkill", "lsof", "taskkill"}

// TasklistFilter is tasklist's filter by PID, in lower case: without it
// tasklist probes nothing.
const TasklistFilter = "pid eq"

// Shells are the programs that run their script argument.
var Shells = []string{"sh", "bash", "dash", "zsh", "ksh", "cmd", "powershell", "pwsh"}

// scriptProbes finds the same probes inside scripts ("sh -c …").
var scriptProbes = []struct {
	re    *regexp.Regexp
	probe Probe
}{
	{regexp.MustCompile(`\bkill\s+(-0|-s\s+0)\b`), KillZero},
	{regexp.MustCompile(`\bps\s+(.*\s)?-p\b`), PsPID},
	{regexp.MustCompile(`\bpkill\s+-0\b`), PkillZero},
	{regexp.MustCompile(`\bpgrep\b`), Pgrep},
	{regexp.MustCompile(`\blsof\s+(.*\s)?-p\b`), LsofPID},
	{regexp.MustCompile(`(?i)\btasklist\b.*PID eq`), TasklistPID},
}

// Name is the lower-case base name of a command, without .exe: what a
// command line runs, however its first word spells it (Windows's names
// are in any case: TASKLIST.EXE).
func Name(command string) string {
	return strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(command, `\`, "/"))), ".exe")
}

// Classify returns the probe a command line is, if any: the program name
// (as written) and its arguments, "" for those that are not constants.
// A shell given a script ("sh -c 'kill -0 $pid'") is the probe its
// script runs.
func Classify(name string, args []string) Probe {
	has := func(a ...string) bool {
		return slices.ContainsFunc(args, func(s string) bool { return slices.Contains(a, s) })
	}
	base := Name(name)
	switch probes[base] {
	case KillZero:
		if has("-0", "-s0", "-n0") || (has("-s", "-n") && has("0", "EXIT")) {
			return KillZero
		}
	case PsPID:
		if (has("-p", "p", "--pid") || psOperands(args)) && !psReadsFields(args) {
			return PsPID
		}
	case Pgrep:
		if !has("-P", "--parent") { // listing children is not a probe
			return Pgrep
		}
	case PkillZero:
		if has("-0") {
			return PkillZero
		}
	case LsofPID:
		if has("-p") {
			return LsofPID
		}
	case TasklistPID:
		for _, a := range args {
			if strings.Contains(strings.ToLower(a), TasklistFilter) {
				return TasklistPID
			}
		}
	}
	if slices.Contains(Shells, base) {
		for _, a := range args {
			for _, sp := range scriptProbes {
				if sp.re.MatchString(a) {
					return sp.probe
				}
			}
		}
	}
	return NoProbe
}

// psOperands reports whether ps is given PIDs alone, "ps $pid" (BSD
// syntax: an operand is a PID list): every argument is not a constant.
func psOperands(args []string) bool {
	return len(args) > 0 && !slices.ContainsFunc(args, func(a string) bool { return a != "" })
}

// psReadsFields reports whether ps is asked for fields other than the PID
// ("ps -p N -o comm="): reading a process's data, not probing it.
func psReadsFields(args []string) bool {
	for i, a := range args {
		if (a == "-o" || a == "-O") && i+1 < len(args) {
			f := strings.TrimSuffix(args[i+1], "=")
			return f != "pid" && f != ""
		}
	}
	return false
}
