package pidflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// An Origin is one read of a PID (or of data holding one) from storage.
type Origin struct {
	Source  string        // where it was read, as messages name it
	Checked bool          // compared with 0 or 1, or parsed by safeprobe.ParsePID
	ReadIn  *types.Func   // the function that read it, if in this package
	Read    *ast.CallExpr // the read, when in this package
	Path    ast.Expr      // the file's path, when read in this package
	Inspect bool          // read by safeprobe.Inspect: the file is a safeprobe lock
}

// decodePackages are the packages whose functions carry data from an
// argument to their results or to the variables they fill.
var decodePackages = map[string]bool{
	"strings": true, "bytes": true, "strconv": true, "bufio": true, "io": true, "io/ioutil": true,
	"encoding/json": true, "encoding/gob": true, "encoding/binary": true, "fmt": true,
	"gopkg.in/yaml.v2": true, "gopkg.in/yaml.v3": true, "sigs.k8s.io/yaml": true, "github.com/BurntSushi/toml": true,
}

// origin returns where the value of e was read from, or nil.
func (t *taint) origin(in *types.Func, e ast.Expr) *Origin {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := t.info.Uses[e].(*types.Var); ok {
			return t.vars[v]
		}
	case *ast.SelectorExpr:
		if f, ok := t.info.Uses[e.Sel].(*types.Var); ok && f.IsField() {
			if o := t.origin(in, e.X); o != nil {
				return o
			}
			return t.fieldOrigin(f)
		}
	case *ast.IndexExpr:
		return t.origin(in, e.X)
	case *ast.SliceExpr:
		return t.origin(in, e.X)
	case *ast.StarExpr:
		return t.origin(in, e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB || e.Op == token.AND {
			return t.origin(in, e.X)
		}
	case *ast.CallExpr:
		return t.callOrigin(in, e)
	}
	return nil
}

func (t *taint) callOrigin(in *types.Func, call *ast.CallExpr) *Origin {
	if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 {
			return t.origin(in, call.Args[0]) // int(pid), string(data)
		}
		return nil
	}
	k := t.cls.Of(call)
	fn := k.Fn
	if fn == nil {
		return nil
	}
	// A PID file read where a process is started is the child's (runc
	// --pid-file, a daemon's first start): its PID is not stale.
	fresh := t.sum.starts[in]
	read := k.Role&calls.ReadFile != 0
	switch {
	case fresh && (read || t.storedFact(fn) != nil):
		return nil
	case read:
		if len(call.Args) == 0 || t.kernelPath(in, call.Args[0], 0) {
			return nil
		}
		return &Origin{Source: "a file", ReadIn: in, Read: call, Path: call.Args[0]}
	case k.Role&calls.SafeInspect != 0 && len(call.Args) == 1:
		return &Origin{Source: "a lock file", Checked: true, ReadIn: in, Read: call, Path: call.Args[0], Inspect: true}
	case k.Role&calls.FindProcess != 0 && len(call.Args) == 1:
		return t.origin(in, call.Args[0])
	case k.Role&calls.SafeParsePID != 0 && len(call.Args) == 1:
		if o := t.origin(in, call.Args[0]); o != nil {
			c := *o
			c.Checked = true
			return &c
		}
		return nil
	}
	if f := t.storedFact(fn); f != nil {
		return &Origin{Source: f.Source, Checked: f.Checked, ReadIn: in}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
		if o := t.origin(in, sel.X); o != nil {
			return o // scanner.Text(), reader.ReadString('\n')
		}
	}
	// fmt only fills variables (see fill): Sscanf's count is no PID.
	if fn.Pkg() != nil && decodePackages[fn.Pkg().Path()] && fn.Pkg().Path() != "fmt" {
		for _, a := range call.Args {
			if o := t.origin(in, a); o != nil {
				return o
			}
		}
	}
	return nil
}

// fieldOrigin is the origin of a struct field that holds stored PIDs only.
func (t *taint) fieldOrigin(f *types.Var) *Origin {
	if t.mixed[f] {
		return nil
	}
	return t.fields[f]
}

// carries reports whether result i of the multi-value call e holds the
// data (not the error).
func (t *taint) carries(e ast.Expr, i int) bool {
	tup, ok := t.info.TypeOf(e).(*types.Tuple)
	if !ok || i >= tup.Len() {
		return false
	}
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if fn := calls.Callee(t.info, call); fn != nil {
			if f := t.storedFact(fn); f != nil {
				return f.Result == i
			}
		}
	}
	return !astq.IsError(tup.At(i).Type())
}

// kernelPath reports whether a path names what the kernel lists now
// (/proc, cgroup.procs, /sys), not storage: by its strings and constants,
// the names it is built from (procRoot, hostProc(…), cgroupDir), and the
// one value a local variable in it is given.
func (t *taint) kernelPath(in *types.Func, e ast.Expr, depth int) bool {
	kernel := func(s string) bool {
		return strings.Contains(s, "/proc") || strings.Contains(s, "cgroup") || strings.Contains(s, "/sys/")
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			found = found || n.Kind == token.STRING && kernel(n.Value)
		case *ast.Ident:
			name := strings.ToLower(n.Name)
			if (strings.Contains(name, "proc") || strings.Contains(name, "cgroup")) && !strings.Contains(name, "pid") {
				found = true
				break
			}
			switch obj := t.info.Uses[n].(type) {
			case *types.Const:
				found = found || kernel(obj.Val().String())
			case *types.Var:
				if d, ok := t.funcs.of(in); ok && depth < 3 {
					if def := astq.LocalDefinition(t.info, d.Cur, n); def != nil {
						found = found || t.kernelPath(in, def, depth+1)
					}
				}
			}
		}
		return !found
	})
	return found
}
