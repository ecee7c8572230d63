package shellcmd

import "strings"

// This file is the other half of what a command line does to a PID: the
// real signal kill(1), pkill -F and taskkill /PID send, and the fields of
// a process that ps -o reads (a name, a start time), which a caller
// compares to check whose the process is.

// An Arg is one argument of a command line: a constant's text, or a
// value only the caller follows (Var), such as a PID read from a file.
type Arg struct {
	Text string
	Var  bool
}

// A Signal is the real signal a command line sends to a PID.
type Signal struct {
	PID      int    // the index of the PID argument (for pkill -F, of the PID file's path)
	What     string // the signal, as messages name it: SIGTERM, -9, a forced termination (/F)
	FromFile bool   // the program reads the PID from the file PID names itself (pkill -F)
	Windows  bool   // taskkill: on Windows; the others on Unix
}

// SignalOf returns the real signal the command line name args sends: kill
// with a PID argument (not kill -0, a probe), pkill -F FILE (not with -L
// or -0), taskkill /PID N. The PID is the first argument that is a Var.
func SignalOf(name string, args []Arg) (Signal, bool) {
	prog := Name(name)
	var s Signal
	var opts []string
	s.PID = -1
	for i, a := range args {
		if !a.Var {
			opts = append(opts, a.Text)
			continue
		}
		if s.PID < 0 {
			s.PID = i
			last := ""
			if len(opts) > 0 {
				last = opts[len(opts)-1]
			}
			s.FromFile = prog == "pkill" && (last == "-F" || last == "--pidfile") // -f matches command lines
			if prog == "taskkill" && !strings.EqualFold(last, "/PID") {
				return s, false // an image name (/IM) or a filter
			}
		}
	}
	if s.PID < 0 {
		return s, false
	}
	switch prog {
	case "kill":
		return s, killSignal(&s, opts)
	case "pkill":
		if !s.FromFile {
			return s, false // a name pattern, not a PID
		}
		s.What = "SIGTERM"
		for _, o := range opts {
			if o == "-0" || o == "-L" || o == "--logpidfile" {
				return s, false // a probe, or the file's lock is checked
			}
			if strings.HasPrefix(o, "-") && o != "-F" && o != "--pidfile" {
				s.What = o
			}
		}
		return s, true
	case "taskkill":
		s.What, s.Windows = "a close request", true
		for _, o := range opts {
			if strings.EqualFold(o, "/F") {
				s.What = "a forced termination (/F)"
			}
		}
		return s, true
	}
	return s, false
}

// killSignal sets the signal kill's options ask for, and reports whether
// it is a real one (not -0, -s 0).
func killSignal(s *Signal, opts []string) bool {
	s.What = "SIGTERM"
	for i, o := range opts {
		switch {
		case o == "-0" || o == "-s0" || o == "-n0":
			return false // a probe
		case (o == "-s" || o == "--signal" || o == "-n") && i+1 < len(opts):
			if opts[i+1] == "0" || opts[i+1] == "EXIT" {
				return false // bash names signal 0 EXIT
			}
			s.What = "SIG" + strings.TrimPrefix(strings.ToUpper(opts[i+1]), "SIG")
			if o == "-n" {
				s.What = "-" + opts[i+1] // a number
			}
		case strings.HasPrefix(o, "-") && len(o) > 1 && o != "--" && (i == 0 || opts[i-1] != "-s" && opts[i-1] != "--signal" && opts[i-1] != "-n"):
			s.What = o
		}
	}
	return true
}

// PsFields says what the fields a ps command line asks for (-o comm=,
// -o lstart=) read of a process: a name, its start time.
func PsFields(args []string) (name, start bool) {
	for i, a := range args {
		if (a == "-o" || a == "-O") && i+1 < len(args) {
			for f := range strings.SplitSeq(args[i+1], ",") {
				switch strings.TrimSuffix(strings.TrimSpace(f), "=") {
				case "lstart", "start", "start_time", "stime", "etime", "etimes", "bsdstart":
					start = true
				case "comm", "ucomm", "args", "cmd", "command", "exe", "ucmd", "fname":
					name = true
				}
			}
			return name, start
		}
	}
	return false, false
}

// PIDFileArg returns the index of the PID file operand of pkill -F FILE
// and pgrep -F FILE (also --pidfile FILE), which read the PID from that
// file themselves; -1 for other command lines.
func PIDFileArg(name string, args []string) int {
	switch Name(name) {
	case "pkill", "pgrep":
		for i, a := range args[:max(len(args)-1, 0)] {
			if a == "-F" || a == "--pidfile" {
				return i + 1
			}
		}
	}
	return -1
}
