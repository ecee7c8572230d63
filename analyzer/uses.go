package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// useKind says how code consumes the error (or result) of a probe. Later
// kinds take precedence: one EPERM-aware use makes the whole probe aware.
type useKind int

const (
	useNone     useKind = iota // discarded or passed on: no verdict here
	useReturned                // returned to the caller unexamined
	useVerdict                 // compared with nil: EPERM and ESRCH read alike
	useText                    // err.Error() compared with a message
	useAware                   // tells EPERM, ESRCH or ErrProcessDone apart
)

// errUse is how one probe's error is used.
type errUse struct {
	kind useKind
	// direct is the probe compared with nil in place ("kill(…) == nil").
	direct *ast.BinaryExpr
	// inverted: the function's name promises "alive" but it returns
	// "probe failed" (or the reverse).
	inverted bool
	// identity: the error is compared with == to a value a wrapped error
	// would not equal, so swapping in safeprobe would change the result.
	identity bool
	// notExist: the error is tested with os.IsNotExist or fs.ErrNotExist,
	// which a safeprobe error does not match.
	notExist bool
	// propagated: the error itself is returned, maybe wrapped.
	propagated bool
	// variable the error is assigned to, if any.
	variable *types.Var
}

func (u *errUse) add(k useKind) {
	if k > u.kind {
		u.kind = k
	}
}

// useOf classifies how the result at index of the call at cur is used.
func useOf(info *types.Info, cur inspector.Cursor, index int) errUse {
	var u errUse
	child, parent := outerParens(cur)
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

// outerParens returns the outermost parenthesised form of the expression
// at c, and its parent.
func outerParens(c inspector.Cursor) (expr, parent inspector.Cursor) {
	parent = c.Parent()
	for {
		if _, ok := parent.Node().(*ast.ParenExpr); !ok {
			return c, parent
		}
		c, parent = parent, parent.Parent()
	}
}

// varUse classifies every use of v inside the function enclosing cur.
func varUse(info *types.Info, cur inspector.Cursor, v *types.Var) errUse {
	u := errUse{variable: v}
	for id := range usesIn(info, enclosingFunc(cur), v) {
		if ek := id.ParentEdgeKind(); ek == edge.AssignStmt_Lhs {
			continue // reassigned: a new value, not a use
		}
		if sw, ok := id.Parent().Node().(*ast.SwitchStmt); ok && id.ParentEdgeKind() == edge.SwitchStmt_Tag {
			classifySwitch(info, sw, &u)
			continue
		}
		classifyUse(info, id, &u)
		if inReturn(id) {
			u.propagated = true
		}
	}
	if u.propagated && u.kind == useVerdict && !u.inverted {
		// "if err != nil { return fmt.Errorf(…: %w, err) }" hands the
		// error to the caller, who can still tell EPERM apart.
		u.kind = useReturned
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
func classifyUse(info *types.Info, c inspector.Cursor, u *errUse) {
	c, parent := outerParens(c)
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
		case isNil(info, other):
			u.add(useVerdict)
			if _, ok := c.Node().(*ast.CallExpr); ok {
				u.direct = p
			}
			if polarityInverted(parent, p.Op) {
				u.inverted = true
			}
		case isLivenessError(info, other):
			u.add(useAware)
			u.identity = true
		default:
			if _, ok := intConst(info, other); ok {
				u.add(useVerdict) // an Errno compared with 0
			}
		}
	case *ast.CallExpr:
		fn := callee(info, p)
		switch {
		case isPkgFunc(fn, "errors", "As"):
			u.add(useAware) // extracts the Errno to look at it
		case isPkgFunc(fn, "errors", "Is") && len(p.Args) == 2:
			if isLivenessError(info, p.Args[1]) {
				u.add(useAware)
			} else if isPkgObj(info, p.Args[1], "os", "ErrNotExist") || isPkgObj(info, p.Args[1], "io/fs", "ErrNotExist") {
				u.add(useVerdict)
				u.notExist = true
			}
		case isPkgFunc(fn, "os", "IsPermission"):
			u.add(useAware)
		case isPkgFunc(fn, "os", "IsNotExist", "IsExist"):
			u.add(useVerdict)
			u.notExist = true
		case isErrorPredicate(fn):
			// The code's own test (isPerm(err)) may tell EPERM apart;
			// what it does is not seen from here, so it is trusted.
			u.add(useAware)
		}
	case *ast.SelectorExpr:
		if p.Sel.Name == "Error" && comparesText(info, parent) {
			u.add(useText)
		}
	case *ast.TypeAssertExpr:
		u.add(useAware) // err.(syscall.Errno) and a look at the value
	case *ast.ReturnStmt:
		u.add(useReturned)
	case *ast.IfStmt, *ast.UnaryExpr:
		u.add(useVerdict) // a bool result used as the verdict
	}
}

// isErrorPredicate reports whether fn is a func(error) bool other than
// package os's, whose meanings are known (IsPermission, IsNotExist, …).
func isErrorPredicate(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == "os" {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		types.Identical(sig.Params().At(0).Type(), types.Universe.Lookup("error").Type()) &&
		types.Identical(sig.Results().At(0).Type().Underlying(), types.Typ[types.Bool])
}

// classifySwitch handles "switch err { case nil: … case syscall.EPERM: … }".
func classifySwitch(info *types.Info, sw *ast.SwitchStmt, u *errUse) {
	for _, stmt := range sw.Body.List {
		for _, e := range stmt.(*ast.CaseClause).List {
			switch {
			case isLivenessError(info, e):
				u.add(useAware)
				u.identity = true
			case isNil(info, e):
				u.add(useVerdict)
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
		fn := callee(info, p)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "strings"
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
	decl, ok := enclosingDecl(cmp)
	if !ok {
		return false
	}
	switch livenessPolarity(decl.Name.Name) {
	case +1:
		return op == token.NEQ
	case -1:
		return op == token.EQL
	}
	return false
}

// livenessPolarity is +1 for a name that promises "alive", -1 for one that
// promises "dead", 0 otherwise.
func livenessPolarity(name string) int {
	n := strings.ToLower(name)
	for _, neg := range []string{"notrunning", "notalive", "dead", "gone", "exited", "stale"} {
		if strings.Contains(n, neg) {
			return -1
		}
	}
	for _, pos := range []string{"alive", "running", "exists", "islive"} {
		if strings.Contains(n, pos) {
			return +1
		}
	}
	return 0
}

type processUseKind int

const (
	processUnused      processUseKind = iota // blank, or only Release/Pid
	processNilCompared                       // "p != nil" is the verdict
	processProbed                            // signalled, killed, waited for or passed on
)

// processUse says what code does with the *os.Process (or other value)
// that lhs receives.
func processUse(info *types.Info, cur inspector.Cursor, lhs ast.Expr) processUseKind {
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return processProbed // stored somewhere: used elsewhere
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return processUnused
	}
	body := enclosingFunc(cur)
	if !body.Valid() {
		return processProbed
	}
	kind := processUnused
	for use := range usesIn(info, body, v) {
		switch p := use.Parent().Node().(type) {
		case *ast.BinaryExpr:
			if isNil(info, p.X) || isNil(info, p.Y) {
				kind = processNilCompared
				continue
			}
		case *ast.SelectorExpr:
			if p.Sel.Name == "Pid" || p.Sel.Name == "Release" {
				continue
			}
		}
		return processProbed
	}
	return kind
}
