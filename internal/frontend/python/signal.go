package python

import "fmt"

// psutilSignals are psutil.Process's methods that signal the process.
var psutilSignals = map[string]bool{"terminate": true, "kill": true, "send_signal": true}

// checkSignal reports PY003 on a call that sends a real signal: os.kill
// or os.killpg with a signal not known to be 0, or terminate(), kill()
// or send_signal() of a psutil.Process.
func checkSignal(c *checker, call int32) {
	f := c.f
	var pid int32 = none
	what := ""
	switch name := f.callee(call); name {
	case "os.kill", "os.killpg":
		if sig, known, _ := signalValue(f, f.arg(call, 1, "sig")); known && sig == 0 {
			return // a probe: PY001's
		}
		pid, what = f.arg(call, 0, "pid"), name
	default:
		m, recv := f.methodCall(call)
		if !psutilSignals[m] {
			return
		}
		if pid = psutilPID(f, recv); pid == none {
			return
		}
		what = "psutil.Process." + m
	}
	if pid == none {
		return
	}
	o := f.origin(pid, 0)
	if o.kind != external {
		return
	}
	pidName := ""
	if p := f.strip(pid); f.kind(p) == "identifier" {
		pidName = f.text(p)
	}
	best := f.checkIn(f.scope(call), pidName, call)
	if o.at != none && f.scope(o.at) != f.scope(call) {
		best = max(best, f.checkIn(f.scope(o.at), "", call))
	}
	switch {
	case best == idCheck, best == nameCheck && !c.strict:
		return
	case best == nameCheck:
		c.report("PY003", call, fmt.Sprintf("%s signals a PID read from %s (line %d) checked only by its name, exe or command line (-strict): another instance of the same program passes; compare a recorded start time (pidprobe.signal_owner)", what, o.what, f.line(o.at)))
		return
	}
	c.report("PY003", call, fmt.Sprintf("%s signals a PID read from %s (line %d) with no check that it still names that process: after a crash, a reboot or PID reuse it is someone else's; hold a lock on the PID file and compare a recorded start time (pidprobe.signal_owner, pidlint -vendor-python-helper)", what, o.what, f.line(o.at)))
}

// psutilPID returns the PID argument of the psutil.Process that recv is:
// psutil.Process(pid) itself, or a name bound to one in its scope; none
// for anything else (a Popen's kill() is an own child's).
func psutilPID(f dataflow, recv int32) int32 {
	recv = f.strip(recv)
	if recv == none {
		return none
	}
	if f.kind(recv) == "call" && f.callee(recv) == "psutil.Process" {
		return f.arg(recv, 0, "pid")
	}
	if f.kind(recv) != "identifier" {
		return none
	}
	scope, name := f.scope(recv), f.text(recv)
	for _, id := range f.names[name] {
		if f.scope(id) != scope {
			continue
		}
		if a := f.parent(id); f.kind(a) == "assignment" && f.field(a, "left") == id {
			if v := f.strip(f.field(a, "right")); f.kind(v) == "call" && f.callee(v) == "psutil.Process" {
				return f.arg(v, 0, "pid")
			}
		}
	}
	return none
}
