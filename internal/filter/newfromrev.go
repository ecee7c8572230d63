package filter

// NewFromRev is -new-from-rev: only findings on the lines a git diff adds
// or changes since a revision, or in the files git does not track.

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pidlint/pidlint/internal/finding"
	"github.com/pidlint/pidlint/internal/git"
)

// NewFromRev keeps the findings on lines added or changed in a git work
// tree since a revision.
type NewFromRev struct {
	root      string                  // the work tree's top directory
	lines     map[string]map[int]bool // slash path relative to root → changed lines
	untracked map[string]bool         // files git does not track: wholly new
}

func (c *NewFromRev) Filter(rep *finding.Report) ([]finding.Finding, error) {
	var kept []finding.Finding
	for _, f := range rep.Findings {
		if c.changed(f.Pos) {
			kept = append(kept, f)
		}
	}
	return kept, nil
}

// changed reports whether the line at pos was added or changed.
func (c *NewFromRev) changed(pos finding.Position) bool {
	rel := finding.Rel(c.root, pos.File)
	if rel == "" {
		return false
	}
	return c.untracked[rel] || c.lines[rel][pos.Line]
}

// ChangedSince reads the changes in the git work tree holding dir since
// rev: the working tree (staged or not) against rev, and untracked files
// that .gitignore does not exclude.
func ChangedSince(dir, rev string) (*NewFromRev, error) {
	root, err := git.TopLevel(dir)
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev=%s: not in a git work tree (%v)", rev, err)
	}
	out, err := git.Run(root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	commit := strings.TrimSpace(out)
	if err != nil {
		// Before the first commit, HEAD names no commit yet: every
		// line is new (a pre-commit hook on a new repository).
		if !unborn(root, rev) {
			return nil, fmt.Errorf("-new-from-rev=%s: unknown revision %q in %s", rev, rev, root)
		}
		if commit, err = emptyTree(root); err != nil {
			return nil, fmt.Errorf("-new-from-rev=%s: %v", rev, err)
		}
	}
	diff, err := git.Run(root, "-c", "core.quotePath=false", "diff", "--unified=0", "--no-color", "--no-ext-diff",
		"--no-textconv", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/", commit, "--")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev=%s: %v", rev, err)
	}
	lines, err := parseDiff(strings.NewReader(diff))
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev=%s: %v", rev, err)
	}
	others, err := git.Run(root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev=%s: %v", rev, err)
	}
	untracked := make(map[string]bool)
	for name := range strings.SplitSeq(others, "\x00") {
		if name != "" {
			untracked[name] = true
		}
	}
	return &NewFromRev{root: root, lines: lines, untracked: untracked}, nil
}

// unborn reports whether rev names the branch HEAD is on while it has no
// commit yet.
func unborn(root, rev string) bool {
	if _, err := git.Run(root, "rev-parse", "--verify", "--quiet", "HEAD"); err == nil {
		return false
	}
	branch, err := git.Run(root, "symbolic-ref", "--short", "HEAD")
	return err == nil && (rev == "HEAD" || rev == "@" || rev == strings.TrimSpace(branch))
}

// emptyTree is the ID of the tree with nothing in it, in the repository's
// hash.
func emptyTree(root string) (string, error) {
	out, err := git.Run(root, "hash-object", "-t", "tree", "--stdin") // no input: empty
	return strings.TrimSpace(out), err
}

// parseDiff reads a unified diff with zero lines of context (git diff
// --unified=0) and returns, per new file name, the lines its hunks add or
// change: those in each hunk's "+start,count" range.
func parseDiff(r io.Reader) (map[string]map[int]bool, error) {
	lines := make(map[string]map[int]bool)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	var file string          // the current file's new name; "" when deleted
	oldLeft, newLeft := 0, 0 // lines of the current hunk still to read
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if oldLeft > 0 || newLeft > 0 {
			// Inside a hunk every line is content, even one that
			// looks like a header.
			switch {
			case strings.HasPrefix(line, "-"):
				oldLeft--
			case strings.HasPrefix(line, "+"):
				newLeft--
			case strings.HasPrefix(line, " "):
				oldLeft--
				newLeft--
			case strings.HasPrefix(line, `\`): // "\ No newline at end of file"
			default:
				return nil, fmt.Errorf("diff line %d: hunk ends early: %q", n, line)
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "diff "):
			file = ""
		case strings.HasPrefix(line, "+++ "):
			name, err := diffName(strings.TrimPrefix(line, "+++ "))
			if err != nil {
				return nil, fmt.Errorf("diff line %d: %v", n, err)
			}
			file = name
		case strings.HasPrefix(line, "@@ "):
			oldCount, newStart, newCount, err := hunkHeader(line)
			if err != nil {
				return nil, fmt.Errorf("diff line %d: %v", n, err)
			}
			oldLeft, newLeft = oldCount, newCount
			if file == "" || newCount == 0 {
				continue
			}
			set := lines[file]
			if set == nil {
				set = make(map[int]bool)
				lines[file] = set
			}
			for l := newStart; l < newStart+newCount; l++ {
				set[l] = true
			}
		}
	}
	return lines, sc.Err()
}

// diffName returns the file name of a "+++" line's value: "b/name" or a
// C-quoted "\"b/name\"", or "" for /dev/null.
func diffName(s string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("bad quoted file name %s", s)
		}
		s = u
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i] // a timestamp after a tab, from diffs not made by git
	}
	name, ok := strings.CutPrefix(s, "b/")
	if !ok {
		return "", fmt.Errorf("file name %q without the b/ prefix", s)
	}
	return name, nil
}

// hunkHeader parses "@@ -l[,s] +l[,s] @@ …": the old range's line count
// and the new range.
func hunkHeader(line string) (oldCount, newStart, newCount int, err error) {
	bad := fmt.Errorf("bad hunk header %q", line)
	fields := strings.Fields(line)
	if len(fields) < 4 || fields[0] != "@@" || fields[3] != "@@" ||
		!strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, 0, bad
	}
	if _, oldCount, err = hunkRange(fields[1][1:]); err != nil {
		return 0, 0, 0, bad
	}
	if newStart, newCount, err = hunkRange(fields[2][1:]); err != nil {
		return 0, 0, 0, bad
	}
	return oldCount, newStart, newCount, nil
}

// hunkRange parses "start[,count]"; count defaults to 1.
func hunkRange(s string) (start, count int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 {
		return 0, 0, fmt.Errorf("bad range %q", s)
	}
	count = 1
	if hasCount {
		if count, err = strconv.Atoi(b); err != nil || count < 0 {
			return 0, 0, fmt.Errorf("bad range %q", s)
		}
	}
	return start, count, nil
}
