package main

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/pidlint/pidlint/safeprobe"
)

// Exit codes of alive.
const (
	aliveRunning = 0
	aliveGone    = 1
	aliveError   = 2
)

// aliveJSON is alive -json's output.
type aliveJSON struct {
	PID      int                 `json:"pid"`
	State    string              `json:"state"`
	Running  bool                `json:"running"`
	Identity *safeprobe.Identity `json:"identity,omitempty"`
	Error    string              `json:"error,omitempty"`
}

func runAlive(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("alive")
	asJSON := fs.Bool("json", false, "")
	operand, code := parseOne("alive", "PID", fs, args, stdout, stderr)
	if code >= 0 {
		return code
	}
	pid, err := parsePIDOperand(operand)
	if err != nil {
		return usageError(stderr, "alive", err)
	}
	state, err := safeprobe.Probe(pid)
	out := aliveJSON{PID: pid, State: state.String(), Running: state == safeprobe.Running}
	if err != nil {
		out.Error = err.Error()
	}
	if *asJSON && (state == safeprobe.Running || state == safeprobe.Zombie) {
		// The identity is read after the state: a process that exited in
		// between has none, and keeps the state it was probed in.
		if id, err := safeprobe.Lookup(pid); err == nil {
			out.Identity = &id
		}
	}
	code = aliveGone
	switch state {
	case safeprobe.Running:
		code = aliveRunning
	case safeprobe.Unknown:
		code = aliveError
	}
	if *asJSON {
		return printJSON(stdout, stderr, out, code, aliveError)
	}
	switch state {
	case safeprobe.Running:
		fmt.Fprintf(stdout, "pid %d is running\n", pid)
	case safeprobe.Zombie:
		fmt.Fprintf(stdout, "pid %d is not running: it exited and its parent has not reaped it (a zombie)\n", pid)
	case safeprobe.NotFound:
		fmt.Fprintf(stdout, "pid %d is not running: no process has it\n", pid)
	default:
		fmt.Fprintf(stderr, "safeprobe alive: pid %d: %v\n", pid, err)
	}
	return code
}

// parsePIDOperand reads a PID from the command line as safeprobe.ParsePID
// does, with an error that says what kill(2) would have made of a number
// no process can have.
func parsePIDOperand(s string) (int, error) {
	pid, err := safeprobe.ParsePID(s)
	if err == nil {
		return pid, nil
	}
	t := strings.TrimSpace(s)
	n, ok := new(big.Int).SetString(t, 10)
	if t == "" {
		return 0, fmt.Errorf("empty PID: want one decimal number in 1..%d", safeprobe.MaxPID)
	}
	if !ok || strings.HasPrefix(t, "+") {
		return 0, fmt.Errorf("%q is not a PID: want one decimal number in 1..%d", s, safeprobe.MaxPID)
	}
	switch {
	case n.Sign() == 0:
		return 0, fmt.Errorf("0 is no process's PID: kill(2) would signal the caller's own process group")
	case n.Cmp(big.NewInt(-1)) == 0:
		return 0, fmt.Errorf("-1 is no process's PID: kill(2) would signal every process the caller may signal")
	case n.Sign() < 0:
		return 0, fmt.Errorf("%s is no process's PID: kill(2) would signal process group %s", t, new(big.Int).Neg(n))
	}
	// kill(2) and os.FindProcess keep the low 32 bits, as a signed pid_t.
	low := int32(uint32(new(big.Int).And(n, big.NewInt(1<<32-1)).Uint64()))
	return 0, fmt.Errorf("%s is out of range 1..%d: kill(2) takes a 32-bit pid_t and would read it as %d", t, safeprobe.MaxPID, low)
}
