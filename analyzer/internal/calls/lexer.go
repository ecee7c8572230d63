package calls

import "bytes"

// The kinds of token the scan tells apart.
const (
	tokEOF = iota
	tokIdent
	tokString
	tokComment
	tokDot
	tokOpen
	tokClose
	tokOther
)

// A lexer splits Go source into the tokens the scan needs: identifiers,
// string literals (as written), comments and a few operators. It keeps
// no positions and builds no values, which makes it several times
// cheaper than go/scanner; on valid Go it finds the same identifiers and
// literals.
type lexer struct {
	src []byte
	i   int
}

func (lx *lexer) next() (int, []byte) {
	src := lx.src
	for lx.i < len(src) && (src[lx.i] == ' ' || src[lx.i] == '\t' || src[lx.i] == '\n' || src[lx.i] == '\r') {
		lx.i++
	}
	if lx.i >= len(src) {
		return tokEOF, nil
	}
	start := lx.i
	c := src[lx.i]
	lx.i++
	switch {
	case isWordByte(c) && !('0' <= c && c <= '9'):
		for lx.i < len(src) && isWordByte(src[lx.i]) {
			lx.i++
		}
		return tokIdent, src[start:lx.i]
	case '0' <= c && c <= '9':
		for lx.i < len(src) && (isWordByte(src[lx.i]) || src[lx.i] == '.') {
			lx.i++
		}
		return tokOther, nil
	case c == '"' || c == '\'':
		lx.skipQuoted(c)
		if c == '\'' {
			return tokOther, nil
		}
		return tokString, src[start:lx.i]
	case c == '`':
		if j := bytes.IndexByte(src[lx.i:], '`'); j >= 0 {
			lx.i += j + 1
		} else {
			lx.i = len(src)
		}
		return tokString, src[start:lx.i]
	case c == '/' && lx.i < len(src) && src[lx.i] == '/':
		if j := bytes.IndexByte(src[lx.i:], '\n'); j >= 0 {
			lx.i += j
		} else {
			lx.i = len(src)
		}
		return tokComment, src[start:lx.i]
	case c == '/' && lx.i < len(src) && src[lx.i] == '*':
		if j := bytes.Index(src[lx.i+1:], []byte("*/")); j >= 0 {
			lx.i += j + 3
		} else {
			lx.i = len(src)
		}
		return tokComment, src[start:lx.i]
	case c == '.':
		return tokDot, nil
	case c == '(':
		return tokOpen, nil
	case c == ')':
		return tokClose, nil
	}
	return tokOther, nil
}

// skipQuoted moves past a string or rune literal opened by quote: to the
// closing quote not escaped, or to the end of the line.
func (lx *lexer) skipQuoted(quote byte) {
	for lx.i < len(lx.src) {
		switch lx.src[lx.i] {
		case '\\':
			lx.i += 2
			continue
		case quote:
			lx.i++
			return
		case '\n':
			return
		}
		lx.i++
	}
	lx.i = len(lx.src)
}
