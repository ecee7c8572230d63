package shell

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"mvdan.cc/sh/v3/syntax"

	"github.com/pidlint/pidlint/internal/rules"
)

// dialect is the shell a file is written for: the interpreter its "#!"
// line names (sh and dash are POSIX; ksh and mksh MirBSD Korn; zsh), bats
// for a .bats file, and bash otherwise - a .sh file without a "#!" line is
// most often sourced by bash.
func dialect(name string, data []byte) syntax.LangVariant {
	switch rules.Interpreter(data) {
	case "sh", "dash", "ash", "posh":
		return syntax.LangPOSIX
	case "ksh", "mksh", "ksh93", "pdksh", "oksh":
		return syntax.LangMirBSDKorn
	case "zsh":
		return syntax.LangZsh
	case "bats":
		return syntax.LangBats
	case "bash":
		return syntax.LangBash
	}
	if filepath.Ext(name) == ".bats" {
		return syntax.LangBats
	}
	return syntax.LangBash
}

// errNotShell is the parse error of a file its "#!" line calls a shell
// script that is another language's: nothing to report.
var errNotShell = errors.New("not a shell script")

// parse parses a file in its dialect. Scripts that ask for sh often use
// bash's arrays or [[ ]] (and run under a /bin/sh that is bash), so a
// file that does not parse as its dialect is parsed again in the dialect
// the parser names for the construct it stopped at, or as bash. A file
// that parses in none is a syntax error, reported with the first
// dialect's message - unless it is a Python program behind a "#!/bin/sh"
// trampoline (errNotShell).
func parse(name string, data []byte) (*syntax.File, error) {
	first := dialect(name, data)
	f, err := parseAs(name, data, first)
	if err == nil {
		return f, nil
	}
	tried := map[syntax.LangVariant]bool{first: true}
	var langErr syntax.LangError
	next := []syntax.LangVariant{syntax.LangBash}
	if errors.As(err, &langErr) && len(langErr.Langs) > 0 {
		next = append(langErr.Langs[:1:1], next...)
	}
	for _, lang := range next {
		if tried[lang] {
			continue
		}
		tried[lang] = true
		f, err2 := parseAs(name, data, lang)
		if err2 == nil {
			return f, nil
		}
		if errors.As(err, &langErr) {
			err = err2 // the construct is another dialect's: the error is further on
		}
	}
	if trampoline(data) {
		return nil, errNotShell
	}
	return nil, err
}

func parseAs(name string, data []byte, lang syntax.LangVariant) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(lang), syntax.KeepComments(true)).Parse(bytes.NewReader(data), name)
}

// trampolines start the second line of a program in another language
// that a "#!/bin/sh" line runs through sh first: Python's "”'exec' python3
// "$0" "$@"" (pip's and virtualenv's launchers), whose rest is Python.
var trampolines = [][]byte{[]byte(`'''exec'`), []byte(`"""exec"`), []byte(`''':'`), []byte(`""":"`)}

// trampoline reports whether the file is another language's program
// behind a shell trampoline.
func trampoline(data []byte) bool {
	_, rest, _ := bytes.Cut(data, []byte("\n"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	line = bytes.TrimSpace(line)
	for _, t := range trampolines {
		if bytes.HasPrefix(line, t) {
			return true
		}
	}
	return false
}

// syntaxError is the one line a file that does not parse gets:
// "file:line: syntax error: text".
func syntaxError(rel string, err error) string {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return fmt.Sprintf("%s:%d: syntax error: %s", rel, pe.Pos.Line(), pe.Text)
	case errors.As(err, &le):
		return fmt.Sprintf("%s:%d: syntax error: %s, which %s does not have", rel, le.Pos.Line(), le.Feature, le.LangUsed)
	}
	return fmt.Sprintf("%s: syntax error: %v", rel, err)
}
