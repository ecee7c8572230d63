package astq

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// BranchWhen returns the block of the if statement around the value at c
// that runs when the tested fact holds: polarity(c) says whether the
// innermost test of c is true when it holds (+1), false (-1), or neither
// (0: no branch); ! flips it, && and || keep it.
func BranchWhen(c inspector.Cursor, polarity func(inspector.Cursor) int) *ast.BlockStmt {
	pol := polarity(c)
	if pol == 0 {
		return nil
	}
	// Climb from the test to the condition.
	cur := c.Parent()
	if _, ok := cur.Node().(*ast.CallExpr); !ok {
		if _, ok := cur.Node().(*ast.BinaryExpr); !ok {
			cur = c // a bool used as it is
		}
	}
	for {
		parent := cur.Parent()
		switch n := parent.Node().(type) {
		case *ast.ParenExpr:
		case *ast.UnaryExpr:
			if n.Op != token.NOT {
				return nil
			}
			pol = -pol
		case *ast.BinaryExpr:
			if n.Op != token.LAND && n.Op != token.LOR {
				return nil
			}
		case *ast.IfStmt:
			if cur.ParentEdgeKind() != edge.IfStmt_Cond {
				return nil
			}
			if pol > 0 {
				return n.Body
			}
			b, _ := n.Else.(*ast.BlockStmt)
			return b
		default:
			return nil
		}
		cur = parent
	}
}
