package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// A lock is only as safe as the directories above its file: whoever may
// rename or replace any of them can move a held lock file away and put
// another in its place. checkAncestors walks the path from the volume's
// root as Windows resolves it, and refuses a directory whose owner is not
// trusted or whose DACL lets another principal remove or rename what it
// holds, or itself. A volume's root cannot be removed or renamed, so
// DELETE on it is no threat: a new NTFS volume grants Authenticated Users
// Modify there.
//
// Each component is opened as itself (FILE_FLAG_OPEN_REPARSE_POINT): a
// junction or directory symbolic link is judged as the reparse point it
// is, not by its target, as a symlink is on Unix. One whose owner is not
// trusted, or whose DACL lets another principal re-point or replace it, is
// refused: a user who may make a missing directory on the path (below C:\,
// or a ProgramData folder that lets Users add) could make it a junction to
// a trusted directory A, let one process lock A\x.lock, re-point it at B,
// and let another lock B\x.lock. A trusted one is followed: the walk goes
// on from its target, whose own path is walked in turn. The walk ends with
// the final path of the lock's directory (GetFinalPathNameByHandle), which
// the lock file, once open, must be in (openLockFileAt).

// maxReparsePoints bounds the reparse points one walk follows, as Windows
// does (63).
const maxReparsePoints = 63

// checkAncestors checks each directory above path (a lock file, or a
// LockDir's directory, which openLockDir checks), and returns the final
// path of the one that holds it ("" where the file system gives none).
// With missingOK, a missing directory ends the walk without an error: the
// caller makes it, and what follows, and walks again. The error wraps
// ErrUnsafePath and names the directory or reparse point and the
// principal.
func checkAncestors(path string, missingOK bool) (checked string, err error) {
	abs, err := filepath.Abs(path) // Windows removes ".." from a path by its text, as Clean does
	if err != nil {
		return "", err
	}
	followed := 0
	return walkDir(filepath.Dir(abs), missingOK, &followed)
}

// walkDir checks every component of dir from its volume's root, following
// trusted reparse points, and returns dir's final path, or "" where the
// file system gives none or missingOK ended the walk. followed counts the
// reparse points followed.
func walkDir(dir string, missingOK bool, followed *int) (string, error) {
	vol := filepath.VolumeName(dir)
	cur := vol + `\`
	if _, err := checkComponent(cur, changeDirRights&^windows.DELETE); err != nil {
		return "", err
	}
	for _, name := range strings.Split(dir[len(vol):], `\`) {
		if name == "" {
			continue
		}
		cur = filepath.Join(cur, name)
		target, err := checkComponent(cur, changeDirRights)
		switch {
		case missingOK && errors.Is(err, fs.ErrNotExist):
			return "", nil
		case err != nil:
			return "", err
		case target == "" || strings.EqualFold(target, cur):
			continue // a directory, or a reparse point that leads to itself (a cloud file placeholder)
		}
		if *followed++; *followed > maxReparsePoints {
			return "", &fs.PathError{Op: "CreateFile", Path: dir, Err: windows.ERROR_CANT_RESOLVE_FILENAME}
		}
		// What follows is below the target: walk its own path, from its
		// volume's root.
		if cur, err = walkDir(target, false, followed); err != nil {
			return "", err
		}
	}
	return finalPathOf(cur), nil
}

// checkComponent opens dir as itself and refuses it if its owner is not
// trusted or its DACL grants another principal any of rights (for a
// reparse point, also to re-point it: reparseRights). For a reparse
// point, it returns the final path of what it leads to; "" otherwise.
func checkComponent(dir string, rights uint32) (target string, err error) {
	h, err := sys.createFile(dir, windows.READ_CONTROL|windows.FILE_READ_ATTRIBUTES, shareAll, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, nil)
	if err != nil {
		return "", &fs.PathError{Op: "CreateFile", Path: dir, Err: err}
	}
	defer sys.closeHandle(h)
	fi, _, err := handleFile(h, dir)
	if err != nil {
		return "", err
	}
	what := "directory " + dir
	reparse := fi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0
	switch {
	case reparse:
		what, rights = "junction or symbolic link "+dir, rights|reparseRights
	case fi.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY == 0:
		return "", &fs.PathError{Op: "CreateFile", Path: dir, Err: windows.ERROR_DIRECTORY}
	}
	if _, err := checkOwner(h, dir, what); err != nil {
		return "", err
	}
	if err := checkDACL(h, dir, what, rights); err != nil {
		return "", err
	}
	if !reparse {
		return "", nil
	}
	target = finalPathOf(dir)
	if target == "" {
		return "", fmt.Errorf("%w: %s: where it leads cannot be read", ErrUnsafePath, what)
	}
	return target, nil
}

// reparseRights let a principal re-point a reparse point (set its data,
// which takes write access to the object) besides what changeDirRights
// let it do.
const reparseRights = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.FILE_WRITE_ATTRIBUTES |
	windows.FILE_WRITE_EA | windows.GENERIC_WRITE

// finalPathOf is the final path of dir, opened following reparse points,
// as a plain path (C:\a, or \\server\share\a); "" where the file system
// gives none.
func finalPathOf(dir string) string {
	h, err := sys.createFile(dir, windows.FILE_READ_ATTRIBUTES, shareAll, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, nil)
	if err != nil {
		return ""
	}
	defer sys.closeHandle(h)
	p, err := sys.finalPath(h)
	if err != nil {
		return ""
	}
	return plainPath(p)
}

// plainPath is a path GetFinalPathNameByHandle gives (\\?\C:\a,
// \\?\UNC\server\share\a) without its \\?\ prefix.
func plainPath(p string) string {
	switch {
	case strings.HasPrefix(p, `\\?\UNC\`):
		return `\\` + p[len(`\\?\UNC\`):]
	case strings.HasPrefix(p, `\\?\`):
		return p[len(`\\?\`):]
	}
	return p
}

// sameDir reports whether two final paths name one directory: Windows
// compares names without regard to case.
func sameDir(a, b string) bool {
	return strings.EqualFold(filepath.Clean(a), filepath.Clean(b))
}

// inCheckedDir refuses an open lock file that is not in the directory the
// walk above its path ended in (p.checked; nothing to compare where it is
// "", or where the file system gives no final path): a junction or link
// on the way was re-pointed between the walk and the open.
func inCheckedDir(h windows.Handle, p lockPath) error {
	if p.checked == "" {
		return nil
	}
	final, err := sys.finalPath(h)
	if err != nil {
		return nil
	}
	if dir := filepath.Dir(plainPath(final)); !sameDir(dir, p.checked) {
		return fmt.Errorf("%w: the lock file opened is in %s, not in %s, which was checked: a junction or link above it changed meanwhile",
			ErrUnsafePath, dir, p.checked)
	}
	return nil
}
