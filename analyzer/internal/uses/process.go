package uses

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
)

// ProcessKind says what code does with an *os.Process it is given.
type ProcessKind int

// Kinds of process use.
const (
	ProcessUnused      ProcessKind = iota // blank, or only Release/Pid
	ProcessNilCompared                    // "p != nil" is the verdict
	ProcessProbed                         // signalled, killed, waited for or passed on
)

// Process says what code does with the *os.Process (or other value) that
// lhs receives in the function around cur.
func Process(info *types.Info, cur inspector.Cursor, lhs ast.Expr) ProcessKind {
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return ProcessProbed // stored somewhere: used elsewhere
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return ProcessUnused
	}
	body := astq.EnclosingFunc(cur)
	if !body.Valid() {
		return ProcessProbed
	}
	kind := ProcessUnused
	for use := range astq.UsesIn(info, body, v) {
		switch p := use.Parent().Node().(type) {
		case *ast.BinaryExpr:
			if astq.IsNil(info, p.X) || astq.IsNil(info, p.Y) {
				kind = ProcessNilCompared
				continue
			}
		case *ast.SelectorExpr:
			if p.Sel.Name == "Pid" || p.Sel.Name == "Release" {
				continue
			}
		}
		return ProcessProbed
	}
	return kind
}
