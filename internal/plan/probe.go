package plan

import (
	"bytes"
	"go/scanner"
	"go/token"
	"regexp"
	"strconv"
)

// probeCall finds the calls some rule looks at: syscall.Kill(pid, sig),
// p.Signal(sig), os.FindProcess(pid), the Syscall family (SYS_KILL), a
// "/proc path and exec.Command. A file without any holds no finding (but
// for calls of wrappers declared elsewhere; see Build). Calls, not
// names: "os.Signal", "cobra.Command", "CleanOnSignal()" and
// ".../process" are everywhere and probe nothing.
var probeCall = regexp.MustCompile("(\\w*)\\.(Kill|Signal|FindProcess)\\(\\s*[^)\\s]|Syscall|[\"`]/proc|exec\\.Command")

// probeProgram matches a string constant PL005 may take for a probe: a
// program it knows ("ps", "/bin/kill", "pgrep.exe"), a tasklist filter
// ("PID eq N") or a script running one ("kill -0 $pid", "ps -p").
var probeProgram = regexp.MustCompile(`(?i)^(.*[/\\])?(kill|ps|pgrep|pkill|lsof)(\.exe)?$|pid eq|\b(kill|ps|pkill|lsof)\s|\bpgrep\b`)

// runsProbeProgram reports whether a string literal in src is one
// probeProgram matches: an exec.Command without one runs no probe (the
// rule looks only at constants). Words in comments and names, such as a
// variable ps or a function pgrep, are not.
func runsProbeProgram(src []byte) bool {
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	for {
		_, tok, lit := sc.Scan()
		switch tok {
		case token.EOF:
			return false
		case token.STRING:
			if v, err := strconv.Unquote(lit); err == nil && probeProgram.MatchString(v) {
				return true
			}
		}
	}
}

// mayReport reports whether src calls something a rule looks at.
func mayReport(src []byte) bool {
	for _, m := range probeCall.FindAllSubmatch(src, -1) {
		switch {
		case bytes.Equal(m[0], []byte("exec.Command")):
			if runsProbeProgram(src) {
				return true
			}
		case len(m[1]) > 0 && bytes.Equal(m[2], []byte("Signal")) &&
			(bytes.Equal(m[1], []byte("syscall")) || bytes.Equal(m[1], []byte("unix"))):
			// syscall.Signal(n) converts; it signals nothing.
		default:
			return true
		}
	}
	return false
}
