package calls

import "strings"

// LivenessPolarity is +1 for a function name that promises "alive", -1
// for one that promises "dead", 0 otherwise.
func LivenessPolarity(name string) int {
	n := strings.ToLower(name)
	for _, neg := range deadWords {
		if strings.Contains(n, neg) {
			return -1
		}
	}
	for _, pos := range aliveWords {
		if strings.Contains(n, pos) {
			return +1
		}
	}
	return 0
}

// The words of names that promise an answer about a process.
var (
	deadWords  = []string{"notrunning", "notalive", "dead", "gone", "exited", "stale"}
	aliveWords = []string{"alive", "running", "exists", "islive"}
)

// The messages of the errors that say a process is gone, which code
// should test with errors.Is instead of comparing err.Error() text.
const (
	TextProcessDone = "process already finished" // os.ErrProcessDone
	TextESRCH       = "no such process"          // syscall.ESRCH
)

// NamesPID reports whether a name speaks of a PID.
func NamesPID(name string) bool { return strings.Contains(strings.ToLower(name), "pid") }
