// Package uses says how code consumes a probe's result: discarded,
// returned, compared with nil (a verdict that reads EPERM as dead),
// compared by its text, or examined for EPERM and ESRCH; and what it does
// with an *os.Process it is given.
package uses

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// Kind says how code consumes the error (or result) of a probe. Later
// kinds take precedence: one EPERM-aware use makes the whole probe aware.
type Kind int

// Kinds of use, weakest first.
const (
	None     Kind = iota // discarded or passed on: no verdict here
	Returned             // returned to the caller unexamined
	Verdict              // compared with nil: EPERM and ESRCH read alike
	Text                 // err.Error() compared with a message
	Aware                // tells EPERM, ESRCH or ErrProcessDone apart
)

// Err is how one probe's error is used.
type Err struct {
	Kind Kind
	// Direct is the probe compared with nil in place ("kill(…) == nil").
	Direct *ast.BinaryExpr
	// Inverted: the function's name promises "alive" but it returns
	// "probe failed" (or the reverse).
	Inverted bool
	// Identity: the error is compared with == to a value a wrapped error
	// would not equal, so swapping in safeprobe would change the result.
	Identity bool
	// NotExist: the error is tested with os.IsNotExist or fs.ErrNotExist,
	// which a safeprobe error does not match.
	NotExist bool
	// Propagated: the error itself is returned, maybe wrapped.
	Propagated bool
	// ESRCH are the syscall.ESRCH (or unix.ESRCH) expressions the error
	// is compared with: with errors.Is, == or !=, or as a switch case.
	ESRCH []ast.Expr
	// ProcessDone: the error is compared with os.ErrProcessDone, what
	// Process.Signal returns for a process that is gone.
	ProcessDone bool
	// ReturnedAsIs: the error itself is a result of the function.
	ReturnedAsIs bool
	// TextApart: a text comparison names ESRCH's or EPERM's message, so
	// it tells a gone process from another user's (however fragile).
	TextApart bool
}

func (u *Err) add(k Kind) {
	if k > u.Kind {
		u.Kind = k
	}
}

// Of classifies how the result at index of the call at cur is used.
func Of(info *types.Info, cur inspector.Cursor, index int) Err {
	var u Err
	child, parent := astq.OuterParens(cur)
	switch p := parent.Node().(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || index >= len(p.Lhs) {
			return u
		}
		if id, ok := p.Lhs[index].(*ast.Ident); ok {
			if v, ok := info.ObjectOf(id).(*types.Var); ok {
				return varUse(info, cur, v)
			}
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 && index < len(p.Names) {
			if v, ok := info.Defs[p.Names[index]].(*types.Var); ok {
				return varUse(info, cur, v)
			}
		}
	case *ast.SwitchStmt:
		if index == 0 {
			classifySwitch(info, p, &u)
		}
	default:
		if index == 0 {
			classifyUse(info, child, &u)
		}
	}
	return u
}

// varUse classifies every use of v inside the function enclosing cur.
func varUse(info *types.Info, cur inspector.Cursor, v *types.Var) Err {
	var u Err
	for id := range astq.UsesIn(info, astq.EnclosingFunc(cur), v) {
		if ek := id.ParentEdgeKind(); ek == edge.AssignStmt_Lhs {
			continue // reassigned: a new value, not a use
		}
		if sw, ok := id.Parent().Node().(*ast.SwitchStmt); ok && id.ParentEdgeKind() == edge.SwitchStmt_Tag {
			classifySwitch(info, sw, &u)
			continue
		}
		classifyUse(info, id, &u)
		if inReturn(id) {
			u.Propagated = true
		}
	}
	if u.Propagated && u.Kind == Verdict && !u.Inverted {
		// "if err != nil { return fmt.Errorf(…: %w, err) }" hands the
		// error to the caller, who can still tell EPERM apart.
		u.Kind = Returned
	}
	return u
}

// inReturn reports whether the identifier at c is part of a returned value,
// itself or wrapped ("return fmt.Errorf(…, err)").
func inReturn(c inspector.Cursor) bool {
	for p := c.Parent(); ; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.CallExpr, *ast.ParenExpr, *ast.CompositeLit, *ast.KeyValueExpr, *ast.UnaryExpr:
			continue
		}
		return false
	}
}

// classifyUse looks at the expression at c (the probe call or a use of the
// variable holding its error) in its context.
func classifyUse(info *types.Info, c inspector.Cursor, u *Err) {
	c, parent := astq.OuterParens(c)
	switch p := parent.Node().(type) {
	case *ast.BinaryExpr:
		if p.Op != token.EQL && p.Op != token.NEQ {
			return
		}
		other := p.X
		if other == c.Node() {
			other = p.Y
		}
		switch {
		case astq.IsNil(info, other):
			u.add(Verdict)
			if _, ok := c.Node().(*ast.CallExpr); ok {
				u.Direct = p
			}
			if polarityInverted(parent, p.Op) {
				u.Inverted = true
			}
		case isLivenessError(info, other):
			u.add(Aware)
			u.Identity = true
			u.noteESRCH(info, other)
		default:
			if _, ok := astq.IntConst(info, other); ok {
				u.add(Verdict) // an Errno compared with 0
			}
		}
	case *ast.CallExpr:
		fn := calls.Callee(info, p)
		switch {
		case calls.IsPkgFunc(fn, "errors", "As"):
			u.add(Aware) // extracts the Errno to look at it
		case calls.IsPkgFunc(fn, "errors", "Is") && len(p.Args) == 2:
			if isLivenessError(info, p.Args[1]) {
				u.add(Aware)
				u.noteESRCH(info, p.Args[1])
			} else if IsNotExistError(info, p.Args[1]) {
				u.add(Verdict)
				u.NotExist = true
			}
		case calls.IsPkgFunc(fn, "os", "IsPermission"):
			u.add(Aware)
		case calls.IsPkgFunc(fn, "os", "IsNotExist", "IsExist"):
			u.add(Verdict)
			u.NotExist = true
		case isErrorPredicate(fn):
			// The code's own test (isPerm(err)) may tell EPERM apart;
			// what it does is not seen from here, so it is trusted.
			u.add(Aware)
		}
	case *ast.SelectorExpr:
		if p.Sel.Name == "Error" && comparesText(info, parent) {
			u.add(Text)
			u.TextApart = u.TextApart || namesApartText(info, parent)
		}
	case *ast.TypeAssertExpr:
		u.add(Aware) // err.(syscall.Errno) and a look at the value
	case *ast.ReturnStmt:
		u.add(Returned)
		u.ReturnedAsIs = true
	case *ast.IfStmt, *ast.UnaryExpr:
		u.add(Verdict) // a bool result used as the verdict
	}
}

// isLivenessError reports whether e names an error that tells a gone
// process from an inaccessible one: EPERM, ESRCH, os.ErrProcessDone or
// the permission errors.
func isLivenessError(info *types.Info, e ast.Expr) bool {
	return astq.IsPkgObj(info, e, calls.Syscall, "EPERM", "ESRCH") ||
		astq.IsPkgObj(info, e, calls.Unix, "EPERM", "ESRCH") ||
		astq.IsPkgObj(info, e, "os", "ErrProcessDone", "ErrPermission") ||
		astq.IsPkgObj(info, e, "io/fs", "ErrPermission")
}

// noteESRCH records e if it names ESRCH, and notes os.ErrProcessDone.
func (u *Err) noteESRCH(info *types.Info, e ast.Expr) {
	if astq.IsPkgObj(info, e, calls.Syscall, "ESRCH") || astq.IsPkgObj(info, e, calls.Unix, "ESRCH") {
		u.ESRCH = append(u.ESRCH, e)
	}
	if astq.IsPkgObj(info, e, "os", "ErrProcessDone") {
		u.ProcessDone = true
	}
}

// IsNotExistError reports whether e is os.ErrNotExist or fs.ErrNotExist.
func IsNotExistError(info *types.Info, e ast.Expr) bool {
	return astq.IsPkgObj(info, e, "os", "ErrNotExist") || astq.IsPkgObj(info, e, "io/fs", "ErrNotExist")
}

// IsExistError reports whether e is os.ErrExist or fs.ErrExist.
func IsExistError(info *types.Info, e ast.Expr) bool {
	return astq.IsPkgObj(info, e, "os", "ErrExist") || astq.IsPkgObj(info, e, "io/fs", "ErrExist")
}

// isErrorPredicate reports whether fn is a func(error) bool other than
// package os's, whose meanings are known (IsPermission, IsNotExist, …).
func isErrorPredicate(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == "os" {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		astq.IsError(sig.Params().At(0).Type()) &&
		types.Identical(sig.Results().At(0).Type().Underlying(), types.Typ[types.Bool])
}

// classifySwitch handles "switch err { case nil: … case syscall.EPERM: … }".
func classifySwitch(info *types.Info, sw *ast.SwitchStmt, u *Err) {
	for _, stmt := range sw.Body.List {
		for _, e := range stmt.(*ast.CaseClause).List {
			switch {
			case isLivenessError(info, e):
				u.add(Aware)
				u.Identity = true
				u.noteESRCH(info, e)
			case astq.IsNil(info, e):
				u.add(Verdict)
			}
		}
	}
}

// comparesText reports whether the err.Error call whose selector is at sel
// is compared with a string or searched with the strings package.
func comparesText(info *types.Info, sel inspector.Cursor) bool {
	call := sel.Parent()
	if _, ok := call.Node().(*ast.CallExpr); !ok {
		return false
	}
	switch p := call.Parent().Node().(type) {
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.SwitchStmt:
		return true
	case *ast.CallExpr:
		fn := calls.Callee(info, p)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "strings"
	}
	return false
}

// apartTexts are the messages of the errors that tell a gone process
// (ESRCH) from another user's (EPERM), in lower case.
var apartTexts = []string{calls.TextESRCH, "operation not permitted"}

// namesApartText reports whether the err.Error() comparison whose selector
// is at sel compares with a string holding one of apartTexts.
func namesApartText(info *types.Info, sel inspector.Cursor) bool {
	var others []ast.Expr
	switch p := sel.Parent().Parent().Node().(type) {
	case *ast.BinaryExpr:
		others = []ast.Expr{p.X, p.Y}
	case *ast.SwitchStmt:
		for _, stmt := range p.Body.List {
			others = append(others, stmt.(*ast.CaseClause).List...)
		}
	case *ast.CallExpr:
		others = p.Args
	}
	for _, e := range others {
		text, ok := astq.StringConst(info, e)
		if !ok {
			continue
		}
		for _, t := range apartTexts {
			if strings.Contains(strings.ToLower(text), t) {
				return true
			}
		}
	}
	return false
}

// polarityInverted reports whether the comparison at cmp is returned from a
// function whose name promises the opposite answer: "isAlive" returning
// "probe != nil", or "isDead" returning "probe == nil".
func polarityInverted(cmp inspector.Cursor, op token.Token) bool {
	if _, ok := cmp.Parent().Node().(*ast.ReturnStmt); !ok {
		return false
	}
	decl, ok := astq.EnclosingDecl(cmp)
	if !ok {
		return false
	}
	switch calls.LivenessPolarity(decl.Name.Name) {
	case +1:
		return op == token.NEQ
	case -1:
		return op == token.EQL
	}
	return false
}
