package safeprobe

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// A lock is only as safe as the directories above its file: whoever may
// rename or replace any of them can move a held lock file away and put
// another in its place. checkAncestors opens every directory from the
// volume's root down to the lock file's (following reparse points, as
// opening the lock file by its path does) and refuses one whose owner is
// not trusted or whose DACL lets another principal remove or rename what
// it holds, or itself. A volume's root cannot be removed or renamed, so
// DELETE on it is no threat: a new NTFS volume grants Authenticated Users
// Modify there.

// checkAncestors checks each directory above path (a lock file, or a
// LockDir's directory, which openLockDir checks). With missingOK, a
// missing directory ends the walk without an error: the caller makes it,
// and what follows, and walks again. The error wraps ErrUnsafePath and
// names the directory and the principal.
func checkAncestors(path string, missingOK bool) (checked string, err error) {
	abs, err := filepath.Abs(path) // Windows removes ".." from a path by its text, as Clean does
	if err != nil {
		return "", err
	}
	dir := filepath.Dir(abs)
	vol := filepath.VolumeName(dir)
	cur := vol + `\`
	if err := checkDir(cur, changeDirRights&^windows.DELETE); err != nil {
		return "", err
	}
	for _, name := range strings.Split(dir[len(vol):], `\`) {
		if name == "" {
			continue
		}
		cur = filepath.Join(cur, name)
		if err := checkDir(cur, changeDirRights); err != nil {
			if missingOK && errors.Is(err, fs.ErrNotExist) {
				return "", nil
			}
			return "", err
		}
	}
	return "", nil
}
