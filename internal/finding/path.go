package finding

import (
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
