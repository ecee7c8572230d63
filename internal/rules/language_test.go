package rules

import (
	"strings"
	"testing"
)

// TestInterpreter checks the "#!" lines that name a shell, directly or
// through env, with options and variables before it.
func TestInterpreter(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"#!/bin/sh\necho hi\n", "sh"},
		{"#! /bin/bash -e\n", "bash"},
		{"#!/usr/bin/env bash\n", "bash"},
		{"#!/usr/bin/env -S bash -eu\n", "bash"},
		{"#!/usr/bin/env -i PATH=/bin dash\n", "dash"},
		{"#!/usr/bin/env -u HOME ksh\n", "ksh"},
		{"#!/bin/bash\r\n", "bash"},
		{"#!/usr/bin/python3\n", "python3"},
		{"#!/usr/bin/env\n", ""},
		{"#!\n", ""},
		{"# comment\n", ""},
		{"echo hi\n", ""},
		{"", ""},
	} {
		if got := Interpreter([]byte(tc.head)); got != tc.want {
			t.Errorf("Interpreter(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
	for _, sh := range []string{"sh", "bash", "dash", "ksh"} {
		if !Shell.RunBy(sh) || Python.RunBy(sh) {
			t.Errorf("%s: Shell.RunBy %v, Python.RunBy %v", sh, Shell.RunBy(sh), Python.RunBy(sh))
		}
	}
	if Shell.RunBy("zsh") || Shell.RunBy("") {
		t.Error("zsh or nothing taken for a shell pidlint parses")
	}
}

// TestIsTest checks each language's test files.
func TestIsTest(t *testing.T) {
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"p/p_test.go", true},
		{"p/p.go", false},
		{"pkg/test_daemon.py", true},
		{"pkg/daemon_test.py", true},
		{"tests/helpers.py", true},
		{"src/tests/unit/fixtures.py", true},
		{"pkg/daemon.py", false},
		{"pkg/testing.py", false},
		{"contest/x.py", false},
		{"tests/run.sh", false},
		{"test/daemon.bats", true},
		{"bin/daemon.sh", false},
		{"daemon.bats", true},
	} {
		if got := IsTest(tc.rel); got != tc.want {
			t.Errorf("IsTest(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}

// TestParseLanguages checks -languages' values: known names, each once,
// an unknown one an error listing the languages.
func TestParseLanguages(t *testing.T) {
	langs, err := ParseLanguages([]string{"shell", " go", "shell"})
	if err != nil || len(langs) != 2 || langs[0] != Shell || langs[1] != Go {
		t.Errorf("ParseLanguages = %v, %v", langs, err)
	}
	if _, err := ParseLanguages([]string{"cobol"}); err == nil || !strings.Contains(err.Error(), `"cobol"`) || !strings.Contains(err.Error(), "go, python, shell") {
		t.Errorf("ParseLanguages(cobol) error = %v", err)
	}
	for _, tc := range []struct {
		lang *Language
		name string
		want bool
	}{
		{Go, "a.go", true}, {Python, "a.py", true}, {Python, "a.pyc", false},
		{Shell, "a.sh", true}, {Shell, "a.bash", true}, {Shell, "a.bats", true}, {Shell, "a.zsh", false},
	} {
		if got := tc.lang.HasExtension(tc.name); got != tc.want {
			t.Errorf("%s.HasExtension(%q) = %v", tc.lang.Name, tc.name, got)
		}
	}
}
