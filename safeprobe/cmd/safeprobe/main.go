// Command safeprobe is safeprobe's probe, lock and stop for shell scripts,
// init scripts, Makefiles and programs in any language: what they do today
// with kill -0 "$(cat app.pid)", flock(1) or start-stop-daemon, without
// their holes (a recycled PID read as alive or signalled, a stale PID file
// blocking every start, a corrupt 0 or -1 reaching kill).
//
// Usage:
//
//	safeprobe alive [-json] PID
//	safeprobe run -lock FILE [-wait DURATION | -nowait] -- CMD [ARG...]
//	safeprobe status [-json] FILE
//	safeprobe stop [-signal TERM] [-timeout 10s] [-kill] [-json] FILE
//	safeprobe -help | help VERB
//
// Each verb's exit codes are in its help (safeprobe help VERB); a command
// line safeprobe cannot use exits 2 with one line saying why. The
// comparison with flock(1), start-stop-daemon, daemonize and systemd's
// PIDFile= is in docs/safeprobe-cli.md.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// exitUsage is every verb's exit code for a command line it cannot use.
const exitUsage = 2

// verb is one of safeprobe's commands.
type verb struct {
	name    string
	summary string // one line, for the overall help
	help    string // the verb's whole help: usage, meaning, exit codes, example
	run     func(args []string, stdout, stderr io.Writer) int
}

var verbs []verb

func init() {
	verbs = []verb{
		{"alive", "is the process with this PID running?", aliveHelp, runAlive},
		{"run", "take the lock and run a command holding it", runHelp, runRun},
		{"status", "who holds the lock (LSB status codes)", statusHelp, runStatus},
		{"stop", "signal the lock's verified holder and wait for the release", stopHelp, runStop},
	}
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs the verb args name and returns the exit code.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, overallHelp())
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			if v := lookupVerb(args[1]); v != nil {
				fmt.Fprint(stdout, v.help)
				return 0
			}
			return usageError(stderr, "", fmt.Errorf("no verb %q", args[1]))
		}
		fmt.Fprint(stdout, overallHelp())
		return 0
	}
	if hook, ok := internalVerbs[args[0]]; ok {
		return hook(args[1:])
	}
	v := lookupVerb(args[0])
	if v == nil {
		return usageError(stderr, "", fmt.Errorf("unknown verb %q (want alive, run, status or stop)", args[0]))
	}
	return v.run(args[1:], stdout, stderr)
}

// internalVerbs are entry points that safeprobe starts itself with (the
// Windows console helper); they are not for users and not in the help.
var internalVerbs = map[string]func(args []string) int{}

func lookupVerb(name string) *verb {
	for i := range verbs {
		if verbs[i].name == name {
			return &verbs[i]
		}
	}
	return nil
}

func overallHelp() string {
	var b strings.Builder
	b.WriteString("safeprobe: the safe PID probe, lock and stop, for scripts in any language\n\nUsage:\n\n")
	for _, v := range verbs {
		fmt.Fprintf(&b, "  %s\n", strings.SplitN(v.help, "\n", 2)[0])
	}
	b.WriteString("\nVerbs:\n\n")
	for _, v := range verbs {
		fmt.Fprintf(&b, "  %-7s %s\n", v.name, v.summary)
	}
	b.WriteString("\nExamples:\n\n")
	for _, v := range verbs {
		for _, line := range strings.Split(v.help, "\n") {
			if strings.HasPrefix(line, "  $ ") {
				fmt.Fprintf(&b, "%s\n", line)
			}
		}
	}
	b.WriteString("\nsafeprobe help VERB (or safeprobe VERB -help) shows a verb's flags and exit codes.\n" +
		"A command line safeprobe cannot use exits 2 with one line saying why.\n")
	return b.String()
}

// usageError prints err as a command-line error of verb and returns
// exitUsage.
func usageError(stderr io.Writer, verb string, err error) int {
	name := "safeprobe"
	if verb != "" {
		name += " " + verb
	}
	fmt.Fprintf(stderr, "%s: %v (%s -help for more)\n", name, err, name)
	return exitUsage
}

// errHelp is parseArgs' error when the command line asks for help.
var errHelp = flag.ErrHelp

// parseArgs parses args with fs, letting flags and operands mix (alive
// 1234 -json) and taking an operand that looks like a negative number
// ("-1") as an operand, so that it is refused as a PID rather than as an
// unknown flag. It returns the operands; after "--", everything is one.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			bad := strings.TrimPrefix(err.Error(), "flag provided but not defined: ")
			if bad != err.Error() && isNegativeNumber(bad) {
				operands = append(operands, bad)
				args = args[indexOf(args, bad)+1:]
				continue
			}
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

func isNegativeNumber(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func indexOf(args []string, s string) int {
	for i, a := range args {
		if a == s {
			return i
		}
	}
	return len(args) - 1
}

// flagSet is a FlagSet for verb that returns its errors.
func flagSet(verb string) *flag.FlagSet {
	return flag.NewFlagSet("safeprobe "+verb, flag.ContinueOnError)
}

// parseVerb parses a verb's command line; code is >= 0 when the verb is
// done (help shown: 0, or a usage error: 2).
func parseVerb(v string, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (operands []string, code int) {
	operands, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(stdout, lookupVerb(v).help)
		return nil, 0
	case err != nil:
		return nil, usageError(stderr, v, err)
	}
	return operands, -1
}

// parseOne parses the command line of a verb that takes one operand
// (what names it, for the error); code is as parseVerb's.
func parseOne(v, what string, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (operand string, code int) {
	operands, code := parseVerb(v, fs, args, stdout, stderr)
	switch {
	case code >= 0:
		return "", code
	case len(operands) != 1:
		return "", usageError(stderr, v, fmt.Errorf("want one %s, got %d operands", what, len(operands)))
	}
	return operands[0], -1
}
