package pidflow

import (
	"go/ast"
	"path"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// Commands that signal a PID given on their command line: kill(1) and
// pkill(1) on Unix, taskkill on Windows. exec.Command("kill", "-9", pid)
// is syscall.Kill with a detour through a program.

// commandSink returns the signal an exec.Command or CommandContext call
// sends when it runs kill, pkill -F or taskkill /PID, or nil. Its PID is
// the first argument that is not a constant (for pkill -F, the PID file's
// path: pkill reads the PID from it).
func commandSink(cls *calls.Classifier, call *ast.CallExpr, k calls.Call) *Sink {
	args := call.Args
	if k.Fn.Name() == "CommandContext" {
		if len(args) == 0 {
			return nil
		}
		args = args[1:]
	}
	if len(args) < 2 {
		return nil
	}
	name, ok := astq.StringConst(cls.Info, args[0])
	if !ok {
		return nil
	}
	prog := strings.ToLower(strings.TrimSuffix(path.Base(strings.ReplaceAll(name, `\`, "/")), ".exe"))
	s := &Sink{Call: call, Command: prog, What: `exec.Command("` + name + `", …)`}
	var opts []string
	for i, a := range args[1:] {
		c, isConst := astq.StringConst(cls.Info, a)
		if !isConst {
			if s.PID == nil && call.Ellipsis == 0 {
				s.PID = a
				s.FileArg = prog == "pkill" && i > 0 && strings.EqualFold(opts[len(opts)-1], "-F")
			}
			continue
		}
		opts = append(opts, c)
	}
	if s.PID == nil {
		return nil
	}
	switch prog {
	case "kill":
		s.SigText = "SIGTERM"
		for i, o := range opts {
			switch {
			case o == "-0" || o == "-s0":
				return nil // a probe: PL005's
			case (o == "-s" || o == "--signal") && i+1 < len(opts):
				if opts[i+1] == "0" {
					return nil
				}
				s.SigText = "SIG" + strings.TrimPrefix(strings.ToUpper(opts[i+1]), "SIG")
			case strings.HasPrefix(o, "-") && len(o) > 1 && o != "--" && (i == 0 || opts[i-1] != "-s" && opts[i-1] != "--signal"):
				s.SigText = o
			}
		}
	case "pkill":
		if !s.FileArg {
			return nil // a name pattern, not a PID
		}
		s.SigText = "SIGTERM"
		for _, o := range opts {
			if o == "-0" || o == "-L" || o == "--logpidfile" {
				return nil // a probe, or the file's lock is checked
			}
			if strings.HasPrefix(o, "-") && !strings.EqualFold(o, "-F") {
				s.SigText = o
			}
		}
	case "taskkill":
		if len(opts) == 0 || !strings.EqualFold(lastOpt(cls, args[1:], s.PID), "/PID") {
			return nil // an image name (/IM) or a filter
		}
		s.SigText = "a close request"
		for _, o := range opts {
			if strings.EqualFold(o, "/F") {
				s.SigText = "a forced termination (/F)"
			}
		}
	default:
		return nil
	}
	return s
}

// lastOpt returns the constant argument just before pid among args, or "".
func lastOpt(cls *calls.Classifier, args []ast.Expr, pid ast.Expr) string {
	for i, a := range args {
		if a == pid && i > 0 {
			c, _ := astq.StringConst(cls.Info, args[i-1])
			return c
		}
	}
	return ""
}

// runsSignalCommand reports whether k, at cur, runs an exec.Cmd that
// signals a PID (exec.Command("kill", pid).Run()): that starts no process
// whose PID a file could hold.
func runsSignalCommand(cls *calls.Classifier, cur inspector.Cursor, k calls.Call) bool {
	sel, ok := ast.Unparen(k.Expr.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x := ast.Unparen(sel.X)
	if id, ok := x.(*ast.Ident); ok {
		x = ast.Unparen(astq.LocalDefinition(cls.Info, cur, id))
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	c := cls.Of(call)
	return c.Fn != nil && c.Role&calls.Command != 0 && commandSink(cls, call, c) != nil
}
