package pidflow

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// A PID file read where a process is started is the child's (runc
// --pid-file, a daemon's first start): written a moment ago, not stale.

// startsProcess reports whether the unit starts a process itself.
func startsProcess(u *unit) bool {
	if u.starts != nil {
		return *u.starts
	}
	found := false
	u.each(func(ins ssa.Instruction) {
		if ci, ok := ins.(ssa.CallInstruction); ok && !found {
			if _, obj, args := calleeOf(ci.Common()); obj != nil {
				found = starts(obj, args)
			}
		}
	})
	u.starts = &found
	return found
}

// helperPrograms are the programs a command line runs to signal, probe or
// read a process: they start no process whose PID a file holds.
var helperPrograms = map[string]bool{"kill": true, "pkill": true, "taskkill": true, "ps": true, "pgrep": true,
	"lsof": true, "tasklist": true}

// runtimeTypes are parts of the names of types whose Start, Run, Exec and
// Create methods start a process: a container runtime's, a VM's.
var runtimeTypes = []string{"Container", "Process", "Runtime", "Task", "Runner", "Sandbox", "Machine", "Cmd", "Command"}

// starts reports whether a call of fn starts a process: exec.Cmd's Start,
// Run and Output (of a program other than a helper), os.StartProcess,
// ForkExec, a runtime's Start, Run, Exec or Create.
func starts(fn *types.Func, args []ssa.Value) bool {
	name, recv := fn.Name(), calls.RecvTypeName(fn)
	switch {
	case pkgPath(fn) == "os/exec" && recv == "Cmd":
		switch name {
		case "Start", "Run", "Output", "CombinedOutput":
			if c, ok := unconvert(args[0]).(*ssa.Call); ok {
				if cmd, ok := c.Call.Value.(*ssa.Function); ok && cmd.Object() != nil {
					if prog, _, ok := commandLine(cmd.Object().(*types.Func), c.Call.Args); ok && helperPrograms[prog] {
						return false
					}
				}
			}
			return true
		}
	case calls.RolesOf(fn, "")&calls.StartProcess != 0:
		return true
	case recv != "" && (name == "Start" || name == "Run" || name == "Exec" || name == "Create"):
		for _, t := range runtimeTypes {
			if strings.Contains(recv, t) {
				return true
			}
		}
	}
	return false
}
