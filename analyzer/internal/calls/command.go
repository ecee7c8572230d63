package calls

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// A Program is a command line that asks whether a PID is alive.
type Program uint8

// The command lines PL005 knows.
const (
	NoProgram   Program = iota
	KillZero            // kill -0 N
	PsPID               // ps -p N
	Pgrep               // pgrep NAME (not -P, which lists children)
	PkillZero           // pkill -0 NAME
	LsofPID             // lsof -p N
	TasklistPID         // tasklist /FI "PID eq N"
)

// ByExitStatus reports whether the program answers through its exit
// status alone, so that it is a probe only when that status decides.
func (p Program) ByExitStatus() bool { return p == Pgrep || p == LsofPID }

// programs are the probe programs by name, as a command's first word
// names them.
var programs = map[string]Program{
	"kill": KillZero, "ps": PsPID, "pgrep": Pgrep, "pkill": PkillZero, "lsof": LsofPID, "tasklist": TasklistPID,
}

// wordPrograms are the programs a word names: the probes (tasklist probes
// only with its PID filter) and taskkill, which PL007 follows.
var wordPrograms = []string{"kill", "ps", "pgrep", "pkill", "lsof", "taskkill"}

// shells run their script argument.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "cmd", "powershell", "pwsh"}

// scriptProbes finds the same probes inside scripts ("sh -c …").
var scriptProbes = []struct {
	re      *regexp.Regexp
	program Program
}{
	{regexp.MustCompile(`\bkill\s+(-0|-s\s+0)\b`), KillZero},
	{regexp.MustCompile(`\bps\s+(.*\s)?-p\b`), PsPID},
	{regexp.MustCompile(`\bpkill\s+-0\b`), PkillZero},
	{regexp.MustCompile(`\bpgrep\b`), Pgrep},
	{regexp.MustCompile(`\blsof\s+(.*\s)?-p\b`), LsofPID},
	{regexp.MustCompile(`(?i)\btasklist\b.*PID eq`), TasklistPID},
}

// programName is the lower-case base name of a command, without .exe.
func programName(name string) string {
	return strings.ToLower(strings.TrimSuffix(path.Base(strings.ReplaceAll(name, `\`, "/")), ".exe"))
}

// ClassifyCommand returns the probe a command line is, if any. Arguments
// that are not constants are "".
func ClassifyCommand(name string, args []string) Program {
	has := func(a ...string) bool {
		return slices.ContainsFunc(args, func(s string) bool { return slices.Contains(a, s) })
	}
	base := programName(name)
	switch programs[base] {
	case KillZero:
		if has("-0") || (has("-s") && has("0")) {
			return KillZero
		}
	case PsPID:
		if has("-p", "p", "--pid") && !psReadsFields(args) {
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
			if strings.Contains(strings.ToUpper(a), "PID EQ") {
				return TasklistPID
			}
		}
	}
	if slices.Contains(shells, base) {
		for _, a := range args {
			for _, sp := range scriptProbes {
				if sp.re.MatchString(a) {
					return sp.program
				}
			}
		}
	}
	return NoProgram
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

// mayNameProgram reports whether a string literal may make a command
// line ClassifyCommand takes for a probe, alone or joined with others:
// one of its words (runs of letters, digits and ._-) is a probe program's
// name, as a command or inside a script (every script probe starts with
// one), or it holds tasklist's PID filter ("PID eq"), without which
// tasklist probes nothing.
func mayNameProgram(lit []byte) bool {
	if hasFold(lit, "pid eq") {
		return true
	}
	for i := 0; i < len(lit); {
		j := i
		for j < len(lit) && isProgramByte(lit[j]) {
			j++
		}
		if j == i {
			i++
			continue
		}
		word := lit[i:j]
		if len(word) > 4 && hasFold(word[len(word)-4:], ".exe") {
			word = word[:len(word)-4]
		}
		for _, name := range wordPrograms {
			if len(word) == len(name) && hasFold(word, name) {
				return true
			}
		}
		i = j
	}
	return false
}

func isProgramByte(b byte) bool {
	return 'a' <= b|0x20 && b|0x20 <= 'z' || '0' <= b && b <= '9' || b == '.' || b == '_' || b == '-'
}
