package python

import "testing"

// TestCandidate checks which files the run parses: those with a word a
// rule needs, and no others.
func TestCandidate(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"os.kill(pid, signal.SIGTERM)", true},
		{`os.path.exists(f"/proc/{pid}")`, true},
		{"p = psutil.Process(pid)\np.terminate()", true},
		{"x = 1  # pidlint:ignore PY003 reason", true},
		{"fd = os.open(p, os.O_CREAT | os.O_EXCL)\nos.write(fd, b'%d' % os.getpid())", true},
		{"from os import getpid\nwith open(p, 'x') as f: f.write(str(getpid()))", true},
		// An exclusive create of something not the program's PID file:
		// PY004 needs the program's own PID.
		{"fd = os.open(p, os.O_CREAT | os.O_EXCL)", false},
		{"with open(report, 'x') as f: f.write(data)", false},
		{`axis = {"x": 1, "y": 2}`, false},
		{"p = psutil.Process(pid)\nprint(p.name())", false},
	} {
		if got := candidate([]byte(tc.src)); got != tc.want {
			t.Errorf("candidate(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
