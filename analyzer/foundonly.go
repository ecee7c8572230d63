package analyzer

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pidlint/pidlint/analyzer/internal/astq"
	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// A process found only to be probed: "p, _ := os.FindProcess(pid)" just
// before "p.Signal(syscall.Signal(0))", p used nowhere else. The code had
// only a PID, so a fix asks safeprobe about the PID and deletes the
// FindProcess that nothing uses any more.
type foundOnly struct {
	pid ast.Expr
	// dead goes with any fix that no longer names the process; deadAlive
	// only with the safeprobe.Alive fix, which leaves no error to check
	// ("p, err := os.FindProcess(pid); if err != nil { return false }").
	dead, deadAlive []ast.Node
}

// foundOnlyAt returns the process the Signal(0) at s probes when it was
// found only for that, or nil.
func foundOnlyAt(s *site) *foundOnly {
	info := s.info()
	v := astq.VarOf(info, s.PID)
	if v == nil {
		return nil
	}
	stmt := enclosingStmt(s.cur)
	if !stmt.Valid() {
		return nil
	}
	prev, ok := stmt.PrevSibling()
	if !ok {
		return nil
	}
	var check *ast.IfStmt // "if err != nil { return false }" between them
	if ifs, ok := prev.Node().(*ast.IfStmt); ok {
		check = ifs
		if prev, ok = prev.PrevSibling(); !ok {
			return nil
		}
	}
	assign, ok := prev.Node().(*ast.AssignStmt)
	if !ok || assign.Tok != token.DEFINE || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 || info.Defs[lhsIdent(assign, 0)] != v {
		return nil
	}
	find, ok := assign.Rhs[0].(*ast.CallExpr)
	if !ok || len(find.Args) != 1 || !calls.IsPkgFunc(calls.Callee(info, find), "os", "FindProcess") {
		return nil
	}
	// The PID is read again where the probe was: a variable, unchanged
	// between two adjacent statements.
	pid, ok := ast.Unparen(find.Args[0]).(*ast.Ident)
	if !ok || !astq.IsInteger(info, pid, true) {
		return nil
	}
	body := astq.EnclosingFunc(s.cur)
	if count(astq.UsesIn(info, body, v)) != 1 || !s.fs.ownLines(assign) {
		return nil
	}
	errVar := info.Defs[lhsIdent(assign, 1)]
	switch {
	case check == nil && astq.Blank(assign.Lhs[1]): // "p, _ :="
		return &foundOnly{pid: pid, dead: []ast.Node{assign}, deadAlive: []ast.Node{assign}}
	case check != nil && errVar != nil && !astq.Blank(assign.Lhs[1]) && returnsFalseOnErr(info, check, errVar) &&
		count(astq.UsesIn(info, body, errVar)) == 1 && s.fs.ownLines(check):
		return &foundOnly{pid: pid, deadAlive: []ast.Node{assign, check}}
	}
	return nil
}

// enclosingStmt returns the statement of a block that holds cur.
func enclosingStmt(cur inspector.Cursor) inspector.Cursor {
	for c := cur; c.Valid(); c = c.Parent() {
		switch c.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return inspector.Cursor{}
		}
		if k := c.ParentEdgeKind(); k == edge.BlockStmt_List {
			return c
		}
	}
	return inspector.Cursor{}
}

func lhsIdent(assign *ast.AssignStmt, i int) *ast.Ident {
	id, _ := assign.Lhs[i].(*ast.Ident)
	return id
}

func count[T any](seq func(func(T) bool)) int {
	n := 0
	for range seq {
		n++
	}
	return n
}

// returnsFalseOnErr reports whether ifs is "if err != nil { return false }"
// for the variable errVar, with no init and no else.
func returnsFalseOnErr(info *types.Info, ifs *ast.IfStmt, errVar types.Object) bool {
	if ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) != 1 {
		return false
	}
	cond, ok := ifs.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return false
	}
	id, ok := cond.X.(*ast.Ident)
	if !ok || info.Uses[id] != errVar || !astq.IsNil(info, cond.Y) {
		return false
	}
	ret, ok := ifs.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	c, ok := info.Uses[identOf(ret.Results[0])].(*types.Const)
	return ok && c.Name() == "false" && c.Pkg() == nil
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// ownLines reports whether n is alone on its lines, so that deleting them
// deletes nothing else: no other statement, no comment but one at the end
// of its last line, which speaks of n.
func (fs *fileState) ownLines(n ast.Node) bool {
	if !fs.readSource() {
		return false
	}
	start := fs.tf.Offset(lineStart(fs.tf, n.Pos()))
	end := fs.tf.Offset(nextLineStart(fs.tf, n.End()))
	before := fs.src[start:fs.tf.Offset(n.Pos())]
	after := fs.src[fs.tf.Offset(n.End()):end]
	after = bytes.TrimSpace(after)
	return len(bytes.TrimSpace(before)) == 0 && (len(after) == 0 || bytes.HasPrefix(after, []byte("//")))
}
