package python

import "bytes"

// candidate reports whether a file's bytes hold something a rule looks
// at: the words of its sinks (kill, /proc, psutil's terminate or
// send_signal), an ignore directive, or, beside getpid (PY004 reports
// only a program's own PID file), O_EXCL or an exclusive-create mode
// string ("x", 'xb'). The others are not parsed: most files of a project
// have none of them, and parsing is what a Python run costs. It is a
// search for files to skip, not a reading of the code: the rules read
// the tree.
func candidate(data []byte) bool {
	for _, w := range [][]byte{[]byte("kill"), []byte("/proc"), []byte("pidlint:")} {
		if bytes.Contains(data, w) {
			return true
		}
	}
	if bytes.Contains(data, []byte("psutil")) && (bytes.Contains(data, []byte("terminate")) || bytes.Contains(data, []byte("send_signal"))) {
		return true
	}
	return bytes.Contains(data, []byte("getpid")) && (bytes.Contains(data, []byte("O_EXCL")) || hasXMode(data))
}

// hasXMode reports whether data holds a string literal that is an
// exclusive-create mode: a quote, x, then b, t or + only, the same quote.
func hasXMode(data []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], 'x')
		if j < 0 {
			return false
		}
		j += i
		if j > 0 && (data[j-1] == '"' || data[j-1] == '\'') {
			q := data[j-1]
			k := j + 1
			for k < len(data) && (data[k] == 'b' || data[k] == 't' || data[k] == '+') {
				k++
			}
			if k < len(data) && data[k] == q {
				return true
			}
		}
		i = j + 1
	}
}
