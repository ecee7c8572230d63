package calls

import (
	"go/build"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLexerAgreesWithGoScanner checks the scan's lexer against go/scanner
// on the standard library's go/, os/ and syscall/ trees: the same identifiers, string
// literals and comments, in the same order.
func TestLexerAgreesWithGoScanner(t *testing.T) {
	files := 0
	for _, dir := range []string{"go", "os", "syscall"} {
		err := filepath.WalkDir(filepath.Join(build.Default.GOROOT, "src", dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.Contains(path, "testdata") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			want := goScannerTokens(src)
			var got []string
			for lx := (lexer{src: src}); ; {
				kind, text := lx.next()
				if kind == tokEOF {
					break
				}
				if kind == tokIdent || kind == tokString || kind == tokComment {
					got = append(got, string(text))
				}
			}
			if !slices.Equal(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Errorf("%s: token %d: lexer %q, go/scanner %q", path, i, got[i], want[i])
						return nil
					}
				}
				t.Errorf("%s: lexer %d tokens, go/scanner %d", path, len(got), len(want))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 500 {
		t.Fatalf("compared %d files", files)
	}
}

// goScannerTokens returns the identifiers (keywords too), string literals
// and comments of src as go/scanner reads them.
func goScannerTokens(src []byte) []string {
	var sc scanner.Scanner
	sc.Init(token.NewFileSet().AddFile("", -1, len(src)), src, nil, scanner.ScanComments)
	var out []string
	for {
		_, tok, lit := sc.Scan()
		switch {
		case tok == token.EOF:
			return out
		case tok == token.IDENT || tok.IsKeyword():
			out = append(out, lit)
			if tok.IsKeyword() {
				out[len(out)-1] = tok.String()
			}
		case tok == token.STRING:
			out = append(out, lit)
		case tok == token.COMMENT:
			out = append(out, strings.TrimRight(lit, "\r"))
		}
	}
}

// TestScanSource checks what the scan takes for a call, and what not.
func TestScanSource(t *testing.T) {
	for _, tc := range []struct {
		src      string
		called   Role
		evidence Evidence
	}{
		{`syscall.Kill(pid, 0)`, Kill | ProcessKill | ThirdPartySignal, PIDName},
		{`p.Kill()`, Kill | ProcessKill | ThirdPartySignal, 0},
		{`p.Signal(sig)`, ProcessSignal, 0},
		{`p.Signal()`, 0, 0},
		{`syscall.Signal(0x1); unix.Signal(9)`, 0, 0},
		{`unix.Kill(n, unix.SIGTERM)`, Kill | ProcessKill | ThirdPartySignal, 0},
		{`func Kill(n int) {}; func (p *P) Signal(s int) {}`, 0, 0},
		{`// os.FindProcess(pid)` + "\n" + `/* p.Signal(0) */`, 0, 0},
		{`s := "p.Signal(0) in /proc/"`, 0, 0},
		{`os.Stat("/proc/" + strconv.Itoa(n))`, PathProbe | StatFile, ProcLiteral},
		{"exec.Command(`/usr/bin/pgrep`, name)", Command, ProgramLiteral},
		{`exec.Command("tasklist.exe", "/FI", "PID eq "+n)`, Command, ProgramLiteral | PIDName},
		{`exec.Command("tasklist.exe", "/FI", "IMAGENAME eq "+n)`, Command, 0},
		{`return strconv.Atoi(s)`, 0, IntParse},
		{`n, err := strconv.Atoi(s); return n, err`, 0, 0},
		{`if isRunning(n) {}`, 0, LivenessCall},
		{`if notRunning(n) {}`, 0, 0},
		{`f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL, 0o600)`, ReadFile | CreateFile, ExclName},
		{`return err.Error() == "os: process already finished"`, ErrorText, GoneLiteral},
		{"//pidlint:ignore PL001 reason\nx()", 0, IgnoreDirective},
		{"//pidlint:file-ignore signal-zero reason\nx()", 0, IgnoreDirective},
		{`safeprobe.Alive(pid)`, SafeAlive | Safeprobe, PIDName | LivenessCall | SafeprobeLiteral},
		{`var p *os.Process`, 0, ProcessName},
	} {
		s := ScanSource([]byte(tc.src))
		if s.Called != tc.called || s.Evidence != tc.evidence {
			t.Errorf("ScanSource(%q) = called %b, evidence %b; want %b, %b", tc.src, s.Called, s.Evidence, tc.called, tc.evidence)
		}
		if m := mayCall([]byte(tc.src)); s.Called&^m.Called != 0 || s.Evidence&LivenessCall&^m.Evidence != 0 {
			t.Errorf("mayCall(%q) = %b, %b: not a superset of the scan", tc.src, m.Called, m.Evidence)
		}
	}
}

// TestIndexFold checks the case-blind search the filters use on whole
// files against strings.Index on lower-cased text.
func TestIndexFold(t *testing.T) {
	for _, tc := range []struct{ src, word string }{
		{"a PID file", "pid"}, {"rapid", "pid"}, {"PiD", "pid"}, {"p i d", "pid"}, {"", "pid"}, {"pi", "pid"},
		{"No Such Process", TextESRCH}, {"no such proces", TextESRCH}, {"xpPid", "pid"},
	} {
		want := strings.Index(strings.ToLower(tc.src), tc.word)
		if got := indexFold([]byte(tc.src), tc.word); got != want {
			t.Errorf("indexFold(%q, %q) = %d, want %d", tc.src, tc.word, got, want)
		}
	}
}
