package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/pidlint/pidlint/internal/shellcmd"
)

// A command is a simple command as the checks read it: the program's
// name (through $KILL and wrappers such as sudo), its argument words and
// what the analysis knows of each.
type command struct {
	name string // shellcmd.Name of the program; "" when unknown
	call *syntax.CallExpr
	args []*syntax.Word // the arguments after the program
	vals []value
}

// consts are the arguments' texts, "" for those that are not constants,
// as shellcmd takes them.
func (c *command) consts() []string {
	out := make([]string, len(c.args))
	for i, w := range c.args {
		out[i], _ = constText(w)
	}
	return out
}

// wrappers run the command their arguments name.
var wrappers = map[string]bool{"command": true, "builtin": true, "exec": true, "nohup": true, "setsid": true, "sudo": true, "doas": true, "env": true, "nice": true, "time": true}

func firstOf(ws []*syntax.Word) *syntax.Word {
	if len(ws) == 0 {
		return nil
	}
	return ws[0]
}

// wrappedAt is the index of the command a wrapper runs: after its
// options (and their values) and, for env, VAR=value words.
func wrappedAt(wrapper string, args []*syntax.Word) int {
	takesValue := map[string]bool{"-u": true, "-g": true, "-n": true, "-C": true, "-p": true}
	for i := 0; i < len(args); i++ {
		s, ok := constText(args[i])
		switch {
		case !ok:
			return i
		case s == "--":
			return i + 1
		case strings.HasPrefix(s, "-"):
			if takesValue[s] && wrapper != "exec" {
				i++
			}
		case wrapper == "env" && strings.Contains(s, "="):
		default:
			return i
		}
	}
	return len(args)
}

// keys are the keys of a value's files.
func keys(v value) []string {
	var ks []string
	for _, o := range v.files {
		ks = append(ks, o.key)
	}
	return ks
}

// fileReaders print their file operands (or their input without one);
// filters print what they read from their operands after the first (a
// script or pattern), or from their input.
var (
	fileReaders = map[string]bool{"cat": true, "head": true, "tail": true, "tac": true, "cut": true, "sort": true, "uniq": true, "strings": true, "readlink": true, "realpath": true}
	filters     = map[string]bool{"sed": true, "awk": true, "gawk": true, "mawk": true, "grep": true, "egrep": true, "fgrep": true, "tr": true, "xargs": true, "tee": true}
	// optionValues are the options of fileReaders that take a value.
	optionValues = map[string]bool{"-n": true, "-c": true, "-d": true, "-f": true, "-k": true, "-t": true}
)

// operands are the indexes of c's file operands after the first skip
// ones: words that do not start with "-" and are not an option's value;
// a constant counts only when it looks like a path.
func operands(c *command, skip int) []int {
	var out []int
	for i := 0; i < len(c.args); i++ {
		s, isConst := constText(c.args[i])
		if isConst && strings.HasPrefix(s, "-") && len(s) > 1 {
			if optionValues[s] {
				i++
			}
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		if isConst && !strings.ContainsAny(s, "/.") {
			continue
		}
		out = append(out, i)
	}
	return out
}

func firstArg(c *syntax.CallExpr) *syntax.Word {
	if len(c.Args) == 0 {
		return nil
	}
	return c.Args[0]
}

// daemonOf is the program a background statement runs, as written:
// "$DAEMON" of nohup "$DAEMON" --flag &.
func daemonOf(s *syntax.Stmt) string {
	if s == nil {
		return ""
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	args := c.Args
	for {
		name, _ := constText(args[0])
		if !wrappers[shellcmd.Name(name)] || len(args) == 1 {
			return text(args[0])
		}
		i := wrappedAt(shellcmd.Name(name), args[1:]) + 1
		if i >= len(args) {
			return ""
		}
		args = args[i:]
	}
}
