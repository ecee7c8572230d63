package main

// A reader for the subset of YAML that the recipes (GitHub workflow,
// action, pre-commit hooks) are written in: block maps and sequences,
// plain and quoted scalars, | and > block scalars, flow sequences of
// scalars, and comments. The main module takes no YAML dependency; a
// recipe that leaves this subset fails its test loudly.

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

type yamlReader struct {
	lines []string
	i     int
}

// parseYAML returns the document as map[string]any, []any and string
// values.
func parseYAML(src string) (any, error) {
	r := &yamlReader{lines: strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")}
	v, err := r.block(-1)
	if err != nil {
		return nil, err
	}
	if r.next() {
		return nil, fmt.Errorf("line %d: unexpected %q", r.i+1, strings.TrimSpace(r.lines[r.i]))
	}
	return v, nil
}

// next skips blank and comment lines and reports whether a line is left.
func (r *yamlReader) next() bool {
	for ; r.i < len(r.lines); r.i++ {
		t := strings.TrimSpace(r.lines[r.i])
		if t != "" && !strings.HasPrefix(t, "#") && t != "---" {
			return true
		}
	}
	return false
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// block reads the map or sequence that starts on the next line, if it is
// indented more than parent.
func (r *yamlReader) block(parent int) (any, error) {
	if !r.next() {
		return nil, nil
	}
	line := r.lines[r.i]
	ind := indentOf(line)
	if ind <= parent {
		return nil, nil
	}
	if strings.HasPrefix(line[ind:], "\t") {
		return nil, fmt.Errorf("line %d: tab indentation", r.i+1)
	}
	if isSeqItem(line[ind:]) {
		return r.seq(ind)
	}
	return r.mapping(ind)
}

func isSeqItem(s string) bool { return s == "-" || strings.HasPrefix(s, "- ") }

func (r *yamlReader) seq(ind int) ([]any, error) {
	var items []any
	for r.next() {
		line := r.lines[r.i]
		if indentOf(line) != ind || !isSeqItem(line[ind:]) {
			if indentOf(line) > ind {
				return nil, fmt.Errorf("line %d: bad indentation", r.i+1)
			}
			break
		}
		rest := strings.TrimPrefix(line[ind:], "-")
		item := strings.TrimLeft(rest, " ")
		if item == "" || strings.HasPrefix(item, "#") {
			r.i++
			v, err := r.block(ind)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
			continue
		}
		if _, _, ok := splitKey(item); ok {
			// "- key: value" starts a map indented at the key.
			keyInd := ind + 1 + len(rest) - len(item)
			r.lines[r.i] = strings.Repeat(" ", keyInd) + item
			v, err := r.mapping(keyInd)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
			continue
		}
		v, err := scalar(item)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", r.i+1, err)
		}
		items = append(items, v)
		r.i++
	}
	return items, nil
}

// splitKey splits "key: value" or "key:".
func splitKey(s string) (key, rest string, ok bool) {
	if strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "'") || strings.HasPrefix(s, "[") {
		return "", "", false
	}
	if i := strings.Index(s, ": "); i > 0 {
		return s[:i], strings.TrimSpace(s[i+2:]), true
	}
	if k, ok := strings.CutSuffix(s, ":"); ok && k != "" && !strings.Contains(k, " ") {
		return k, "", true
	}
	return "", "", false
}

func (r *yamlReader) mapping(ind int) (map[string]any, error) {
	m := make(map[string]any)
	for r.next() {
		line := r.lines[r.i]
		if indentOf(line) != ind || isSeqItem(line[ind:]) {
			if indentOf(line) > ind {
				return nil, fmt.Errorf("line %d: bad indentation", r.i+1)
			}
			break
		}
		key, rest, ok := splitKey(line[ind:])
		if !ok {
			return nil, fmt.Errorf("line %d: want key: value, have %q", r.i+1, line[ind:])
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("line %d: duplicate key %q", r.i+1, key)
		}
		r.i++
		switch {
		case rest == "" || strings.HasPrefix(rest, "#"):
			// A nested block; a sequence may sit at the key's indent.
			if r.next() && indentOf(r.lines[r.i]) == ind && isSeqItem(r.lines[r.i][ind:]) {
				v, err := r.seq(ind)
				if err != nil {
					return nil, err
				}
				m[key] = v
				continue
			}
			v, err := r.block(ind)
			if err != nil {
				return nil, err
			}
			m[key] = v
		case rest[0] == '|' || rest[0] == '>':
			m[key] = r.blockScalar(ind, rest[0] == '>', strings.HasSuffix(strings.Fields(rest)[0], "-"))
		default:
			v, err := scalar(rest)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", r.i, err)
			}
			m[key] = v
		}
	}
	return m, nil
}

// blockScalar reads the lines of a | or > scalar, more indented than the
// key at ind.
func (r *yamlReader) blockScalar(ind int, folded, strip bool) string {
	var lines []string
	textInd := -1
	for ; r.i < len(r.lines); r.i++ {
		line := r.lines[r.i]
		if strings.TrimSpace(line) == "" {
			lines = append(lines, "")
			continue
		}
		if indentOf(line) <= ind {
			break
		}
		if textInd < 0 {
			textInd = indentOf(line)
		}
		lines = append(lines, line[min(textInd, indentOf(line)):])
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	sep := "\n"
	if folded {
		sep = " "
	}
	s := strings.Join(lines, sep)
	if !strip {
		s += "\n"
	}
	return s
}

// scalar reads a plain, quoted or flow-sequence value.
func scalar(s string) (any, error) {
	switch {
	case strings.HasPrefix(s, `"`):
		end := strings.LastIndex(s, `"`)
		if end == 0 {
			return nil, fmt.Errorf("unterminated string %s", s)
		}
		return strconv.Unquote(s[:end+1])
	case strings.HasPrefix(s, "'"):
		end := strings.LastIndex(s, "'")
		if end == 0 {
			return nil, fmt.Errorf("unterminated string %s", s)
		}
		return strings.ReplaceAll(s[1:end], "''", "'"), nil
	case strings.HasPrefix(s, "["):
		end := strings.LastIndex(s, "]")
		if end < 0 {
			return nil, fmt.Errorf("unterminated flow sequence %s", s)
		}
		var items []any
		for f := range strings.SplitSeq(s[1:end], ",") {
			if f = strings.TrimSpace(f); f != "" {
				v, err := scalar(f)
				if err != nil {
					return nil, err
				}
				items = append(items, v)
			}
		}
		return items, nil
	case strings.HasPrefix(s, "{"), strings.HasPrefix(s, "&"), strings.HasPrefix(s, "*"), strings.HasPrefix(s, "!"):
		return nil, fmt.Errorf("unsupported YAML %q", s)
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s), nil
}

func TestYAMLSubset(t *testing.T) {
	src := `# comment
name: x
on:
  push:
    branches: [main, "dev"]
jobs:
  a:
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # all history
      - name: 'it''s'
        run: |
          echo one

          echo two
      - plain
list:
- id: h
  args: [./...]
folded: >-
  a
  b
`
	v, err := parseYAML(src)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(v)
	want := `map[folded:a b jobs:map[a:map[steps:[map[uses:actions/checkout@v4 with:map[fetch-depth:0]] map[name:it's run:echo one

echo two
] plain]]] list:[map[args:[./...] id:h]] name:x on:map[push:map[branches:[main dev]]]]`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{"a: {b: c}", "a:\n  b: c\n d: e", "a: b\na: c", "- a\nb: c"} {
		if _, err := parseYAML(bad); err == nil {
			t.Errorf("parseYAML(%q): no error", bad)
		}
	}
}
