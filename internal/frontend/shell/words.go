package shell

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// constText returns the text of a word made of constant parts only
// (kill, "kill", 'kill', -0), as the shell passes it.
func constText(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	if !appendConst(&b, w.Parts) {
		return "", false
	}
	return b.String(), true
}

func appendConst(b *strings.Builder, parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !appendConst(b, p.Parts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// paramOf returns the parameter a word expands, when the whole word is
// one: $pid, "${pid}", "$1".
func paramOf(w *syntax.Word) *syntax.ParamExp {
	if w == nil || len(w.Parts) != 1 {
		return nil
	}
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok {
		if len(dq.Parts) != 1 {
			return nil
		}
		part = dq.Parts[0]
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Length || pe.Excl || pe.Index != nil {
		return nil
	}
	return pe
}

// paramName is the name of the parameter the whole word expands, or "".
func paramName(w *syntax.Word) string {
	if pe := paramOf(w); pe != nil {
		return pe.Param.Value
	}
	return ""
}

// positional returns N when the whole word is the positional parameter
// $N, else 0.
func positional(w *syntax.Word) int {
	name := paramName(w)
	if len(name) == 1 && name[0] >= '1' && name[0] <= '9' {
		return int(name[0] - '0')
	}
	return 0
}

// flatParts are a word's parts with double quotes opened: "/proc/$pid"
// and /proc/"$pid" alike.
func flatParts(w *syntax.Word) []syntax.WordPart {
	var out []syntax.WordPart
	for _, p := range w.Parts {
		if dq, ok := p.(*syntax.DblQuoted); ok {
			out = append(out, dq.Parts...)
			continue
		}
		out = append(out, p)
	}
	return out
}

// procPath splits a word naming /proc/PID[/rest] with the PID a
// parameter: the parameter and the rest ("", "stat", "cmdline").
func procPath(w *syntax.Word) (*syntax.ParamExp, string, bool) {
	parts := flatParts(w)
	if len(parts) < 2 {
		return nil, "", false
	}
	head, ok := parts[0].(*syntax.Lit)
	if !ok || strings.TrimRight(head.Value, "/") != "/proc" || !strings.HasSuffix(head.Value, "/") {
		return nil, "", false
	}
	pe, ok := parts[1].(*syntax.ParamExp)
	if !ok || pe.Param == nil {
		return nil, "", false
	}
	var rest strings.Builder
	if !appendConst(&rest, parts[2:]) {
		return nil, "", false
	}
	return pe, strings.Trim(rest.String(), "/"), true
}

// text is the word as written.
func text(n syntax.Node) string {
	p := printers.Get().(*syntax.Printer)
	defer printers.Put(p)
	var b strings.Builder
	p.Print(&b, n)
	return b.String()
}

// printers are text's printers, which are not safe for concurrent use and
// cost more to make than most words take to print.
var printers = sync.Pool{New: func() any { return syntax.NewPrinter() }}
