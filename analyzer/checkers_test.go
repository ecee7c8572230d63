package analyzer

import "testing"

// TestCheckers checks that the pass checks exactly the catalogue's Go
// rules, each with one checker, in the catalogue's order (dispatch goes
// by it: the first rule checking a call's role takes the call).
func TestCheckers(t *testing.T) {
	if len(checkers) != len(Rules) {
		t.Fatalf("%d checkers for %d Go rules in the catalogue", len(checkers), len(Rules))
	}
	for i, c := range checkers {
		if c.rule != Rules[i].ID {
			t.Errorf("checker %d checks %s, want the catalogue's %s", i, c.rule, Rules[i].ID)
		}
		if c.calls == nil && c.pkg == nil {
			t.Errorf("the checker of %s checks nothing", c.rule)
		}
	}
}
