package finding

import (
	"os"
	"path/filepath"
	"strings"
)

// Rel returns name relative to root with forward slashes, or "" when name
// is not under root. Symbolic links are resolved in both, so that a root
// and a file reached through different links compare equal.
func Rel(root, name string) string {
	if root == "" || name == "" {
		return ""
	}
	rel, err := filepath.Rel(Canonical(root), Canonical(name))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// ShortPath is name relative to dir when that is shorter and names the
// same file, as the go command prints file names; else name.
func ShortPath(dir, name string) string {
	rel, err := filepath.Rel(dir, name)
	if err != nil || len(rel) >= len(name) || !sameFile(rel, name, dir) {
		return name
	}
	return rel
}

func sameFile(rel, name, dir string) bool {
	fi1, err1 := os.Stat(filepath.Join(dir, rel))
	fi2, err2 := os.Stat(name)
	if err1 != nil || err2 != nil {
		return os.IsNotExist(err1) && os.IsNotExist(err2)
	}
	return os.SameFile(fi1, fi2)
}

// Canonical makes name absolute and resolves its symbolic links.
func Canonical(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	if real, err := filepath.EvalSymlinks(name); err == nil {
		return real
	}
	return name
}
