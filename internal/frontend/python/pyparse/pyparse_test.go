package pyparse

import (
	"strings"
	"sync"
	"testing"
)

// modern is Python 3.12 syntax the front end must read as code, not as
// errors: match, walrus, PEP 701 f-strings, type parameters, async,
// except*.
const modern = `import os
type Pids = list[int]
def first[T](xs: list[T]) -> T: return xs[0]
async def main():
    async with lock:
        await stop()
match cmd:
    case {"pid": int(pid)} if pid > 0:
        os.kill(pid, 15)
    case [*_]:
        pass
if (pid := read()) > 0:
    print(f"{"pid"!r:>{10}} {pid=}")
try:
    pass
except* OSError:
    pass
`

// TestParseModern checks that modern syntax parses without an error node
// and that the tree's links agree: each child's parent is the node it is
// a child of, children lie inside their parent and follow each other.
func TestParseModern(t *testing.T) {
	tr, err := NewParser().Parse([]byte(modern))
	if err != nil {
		t.Fatal(err)
	}
	if e := tr.FirstError(); e != None {
		t.Fatalf("error node at line %d: %q", tr.Nodes[e].Row+1, tr.Text(e))
	}
	if tr.Kind(0) != "module" {
		t.Fatalf("root is %q", tr.Kind(0))
	}
	kinds := map[string]bool{}
	for i := range tr.Nodes {
		n := int32(i)
		kinds[tr.Kind(n)] = true
		prev := None
		for c := range tr.Children(n) {
			if tr.Nodes[c].Parent != n {
				t.Errorf("node %d (%s): child %d has parent %d", n, tr.Kind(n), c, tr.Nodes[c].Parent)
			}
			if tr.Nodes[c].Start < tr.Nodes[n].Start || tr.Nodes[c].End > tr.Nodes[n].End {
				t.Errorf("node %d (%s): child %s outside it", n, tr.Kind(n), tr.Kind(c))
			}
			if prev != None && tr.Nodes[c].Start < tr.Nodes[prev].End {
				t.Errorf("node %d (%s): children overlap", n, tr.Kind(n))
			}
			if !tr.Contains(n, c) {
				t.Errorf("node %d (%s): Contains(child) is false", n, tr.Kind(n))
			}
			prev = c
		}
	}
	for _, k := range []string{"match_statement", "named_expression", "type_alias_statement", "type_parameter", "interpolation", "except_group_clause", "await"} {
		if !kinds[k] {
			t.Errorf("no %s node in the tree", k)
		}
	}
	call := None
	for i := range tr.Nodes {
		if tr.Kind(int32(i)) == "call" && strings.HasPrefix(tr.Text(int32(i)), "os.kill") {
			call = int32(i)
		}
	}
	if call == None {
		t.Fatal("no os.kill call")
	}
	if fn := tr.ChildByField(call, "function"); tr.Text(fn) != "os.kill" || tr.Nodes[call].Row != 8 || tr.Nodes[call].Column != 8 {
		t.Errorf("os.kill call: function %q at %d:%d, want os.kill at 8:8", tr.Text(fn), tr.Nodes[call].Row, tr.Nodes[call].Column)
	}
	if args := tr.ChildByField(call, "arguments"); tr.Text(tr.NamedChild(args, 1)) != "15" {
		t.Errorf("second argument %q, want 15", tr.Text(tr.NamedChild(args, 1)))
	}
}

// TestSyntaxError checks that a broken file still parses: the first
// error node is on the broken line, and the code after it is in the tree.
func TestSyntaxError(t *testing.T) {
	src := "import os\ndef f(:\n    pass\nos.kill(pid, 0)\n"
	tr, err := NewParser().Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e := tr.FirstError()
	if e == None || tr.Nodes[e].Row != 1 {
		t.Fatalf("first error %d, want one on line 2", e)
	}
	found := false
	for i := range tr.Nodes {
		found = found || tr.Kind(int32(i)) == "call" && tr.Text(int32(i)) == "os.kill(pid, 0)"
	}
	if !found {
		t.Error("the call after the error is not in the tree")
	}
}

// TestParsersInParallel parses on several parsers at once (go test -race
// checks that they share nothing) and reuses each for many files.
func TestParsersInParallel(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			p := NewParser()
			for range 20 {
				tr, err := p.Parse([]byte(modern))
				if err != nil || tr.FirstError() != None {
					t.Errorf("Parse: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
}
