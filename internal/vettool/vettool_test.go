package vettool

import "testing"

// TestVetToolCall checks which command lines are go vet's or go fix's
// calls of a vet tool (handled by unitchecker) and which the driver's.
func TestVetToolCall(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"./..."}, false},
		{[]string{"-fix", "./..."}, false},
		{[]string{"-json", "-strict", "./..."}, false},
		{[]string{"-V=full"}, true},
		{[]string{"-V"}, false},
		{[]string{"-version"}, false},
		{[]string{"-flags"}, true},
		{[]string{"/tmp/x/vet.cfg"}, true},
		{[]string{"-json", "-strict=true", "/tmp/x/vet.cfg"}, true},
		{[]string{"-format=sarif", "./..."}, false},
		{[]string{"./a", "/tmp/x/vet.cfg"}, false},
		{[]string{"-format=sarif", "-new-from-rev=HEAD~1", "./..."}, false},
	} {
		if got := IsCall(tc.args); got != tc.want {
			t.Errorf("IsCall(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
