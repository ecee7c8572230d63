package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// A Site is one labelled place in a public module: a signal sent to a PID
// (PL007) or a PID-file guard (PL008), with the verdict a reviewer gave it.
type Site struct {
	Module  string // module path@version
	File    string // slash path inside the module
	Line    int    // where the fix goes: the signal (PL007), the probe deciding staleness (PL008)
	Rule    string // PL007 or PL008
	Label   string // bad, good or name-check
	Scope   []Ref  // more declarations where a finding counts as this site's
	Verdict string // one line
	TSVLine int    // line in the sites file, for messages
}

// A Ref names a top-level declaration: by name (Func, Recv.Method or a
// package-level var) or by a line inside it, in File (relative to the
// directory of the site's file) or, when File is empty, in the site's own
// file.
type Ref struct {
	File string
	Name string
	Line int
}

// Labels: bad is a positive, good a negative; name-check (the process's
// name, executable or command line compared with the expected program) is
// a negative by default and a positive under -strict.
var labels = map[string]bool{"bad": true, "good": true, "name-check": true}

var rules = map[string]bool{"PL007": true, "PL008": true}

var moduleRE = regexp.MustCompile(`^[a-zA-Z0-9.\-_~/]+@v[0-9][^\s@]*$`)

// Positive reports whether the site is one the rule should report.
func (s *Site) Positive(strict bool) bool {
	return s.Label == "bad" || strict && s.Label == "name-check"
}

func (s *Site) String() string {
	return fmt.Sprintf("%s %s:%d %s", s.Module, s.File, s.Line, s.Rule)
}

// ReadSites parses a sites file: tab-separated columns module@version,
// file, line, rule, label, scope ("-" or comma-separated refs) and
// verdict; blank lines and lines starting with # are skipped. Every error
// names the file and line.
func ReadSites(name string) ([]*Site, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var sites []*Site
	seen := make(map[string]int)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		s, err := parseSite(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		s.TSVLine = n
		key := fmt.Sprintf("%s %s:%d %s", s.Module, s.File, s.Line, s.Rule)
		if prev, ok := seen[key]; ok {
			return nil, fmt.Errorf("%s:%d: %s is already labelled at line %d", name, n, key, prev)
		}
		seen[key] = n
		sites = append(sites, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(sites) == 0 {
		return nil, fmt.Errorf("%s: no sites", name)
	}
	return sites, nil
}

func parseSite(text string) (*Site, error) {
	cols := strings.Split(text, "\t")
	if len(cols) != 7 {
		return nil, fmt.Errorf("%d tab-separated columns, want 7 (module, file, line, rule, label, scope, verdict)", len(cols))
	}
	s := &Site{Module: cols[0], File: cols[1], Rule: cols[3], Label: cols[4], Verdict: strings.TrimSpace(cols[6])}
	if !moduleRE.MatchString(s.Module) {
		return nil, fmt.Errorf("module %q is not path@version", s.Module)
	}
	if s.File == "" || strings.HasPrefix(s.File, "/") || strings.Contains(s.File, "..") || !strings.HasSuffix(s.File, ".go") {
		return nil, fmt.Errorf("file %q is not a .go path inside the module", s.File)
	}
	if strings.HasSuffix(s.File, "_test.go") {
		return nil, fmt.Errorf("file %q is a test file: the corpus holds non-test code only", s.File)
	}
	line, err := strconv.Atoi(cols[2])
	if err != nil || line < 1 {
		return nil, fmt.Errorf("line %q is not a positive number", cols[2])
	}
	s.Line = line
	if !rules[s.Rule] {
		return nil, fmt.Errorf("rule %q: want PL007 or PL008", s.Rule)
	}
	if !labels[s.Label] {
		return nil, fmt.Errorf("label %q: want bad, good or name-check", s.Label)
	}
	if s.Verdict == "" {
		return nil, fmt.Errorf("no verdict")
	}
	if s.Scope, err = parseScope(cols[5]); err != nil {
		return nil, err
	}
	return s, nil
}

func parseScope(col string) ([]Ref, error) {
	if col == "-" {
		return nil, nil
	}
	var refs []Ref
	for _, item := range strings.Split(col, ",") {
		item = strings.TrimSpace(item)
		var r Ref
		name := item
		if i := strings.LastIndex(item, ":"); i >= 0 {
			r.File, name = item[:i], item[i+1:]
			if !strings.HasSuffix(r.File, ".go") {
				return nil, fmt.Errorf("scope %q: %q is not a .go file", item, r.File)
			}
		}
		if n, err := strconv.Atoi(name); err == nil {
			r.Line = n
		} else if name != "" {
			r.Name = name
		} else {
			return nil, fmt.Errorf("scope %q names no declaration", item)
		}
		refs = append(refs, r)
	}
	return refs, nil
}
