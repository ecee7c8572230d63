package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Whose lock files, takeover markers and lock directories are believed: a
// file's owner SID must be this process's user, its token's default owner,
// BUILTIN\Administrators or SYSTEM (trustedOwner), as a Unix lock file must
// be the caller's or root's: anything else another user may have written.
// A lock file TryAcquire creates gets a DACL that lets no one else write it.

// fileOwner is a file's owner SID in its string form (S-1-5-...), which
// names one SID and, unlike a *windows.SID, compares with ==.
type fileOwner string

// ownerOf is the fileOwner of sid.
func ownerOf(sid *windows.SID) fileOwner { return fileOwner(sid.String()) }

// checkOwner returns the owner of h's file or directory, and refuses one
// whose owner SID is not trusted.
func checkOwner(h windows.Handle, path, what string) (fileOwner, error) {
	sid, err := sys.fileOwner(h)
	if err != nil {
		return "", &fs.PathError{Op: "GetSecurityInfo", Path: path, Err: err}
	}
	owner := ownerOf(sid)
	return owner, trustedOwner(owner, what)
}

// trustedOwner refuses an owner other than this process's user, its
// token's default owner (BUILTIN\Administrators for an elevated process),
// BUILTIN\Administrators and SYSTEM. The last two are trusted as root is
// on Unix: they can do anything anyway, and an elevated process's files are
// owned by Administrators. Any other owner is another user, who may have
// written the file.
func trustedOwner(owner fileOwner, what string) error {
	trusted, err := trustedOwners()
	if err != nil {
		return err
	}
	for _, sid := range trusted {
		if owner == ownerOf(sid) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s owned by %v, neither this process's user %v nor Administrators or SYSTEM", ErrUnsafePath, what, owner, trusted[0])
}

// trusted caches trustedOwners' answer once it has one: an error (the
// token could not be read) is not kept.
var trusted struct {
	sync.Mutex
	sids []*windows.SID
}

// trustedOwners lists the trusted owners, this process's user first.
func trustedOwners() ([]*windows.SID, error) {
	trusted.Lock()
	defer trusted.Unlock()
	if trusted.sids != nil {
		return trusted.sids, nil
	}
	token := windows.GetCurrentProcessToken()
	user, err := token.GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("this process's user: %w", err)
	}
	sids := []*windows.SID{user.User.Sid}
	if owner, err := tokenOwner(token); err == nil {
		sids = append(sids, owner)
	}
	for _, known := range []windows.WELL_KNOWN_SID_TYPE{windows.WinBuiltinAdministratorsSid, windows.WinLocalSystemSid} {
		sid, err := windows.CreateWellKnownSid(known)
		if err != nil {
			return nil, fmt.Errorf("well-known SID %d: %w", known, err)
		}
		sids = append(sids, sid)
	}
	trusted.sids = sids
	return sids, nil
}

// tokenOwner is the owner that the files the token's process creates get.
func tokenOwner(token windows.Token) (*windows.SID, error) {
	var n uint32
	windows.GetTokenInformation(token, windows.TokenOwner, nil, 0, &n)
	if n == 0 {
		return nil, errors.New("GetTokenInformation(TokenOwner) gave no size")
	}
	buf := make([]byte, n)
	if err := windows.GetTokenInformation(token, windows.TokenOwner, &buf[0], n, &n); err != nil {
		return nil, err
	}
	// TOKEN_OWNER: one pointer, into buf.
	return (*struct{ Owner *windows.SID })(unsafe.Pointer(&buf[0])).Owner.Copy()
}

// lockFileSecurity is the security descriptor of a lock file TryAcquire
// creates: a DACL of its own, not the directory's inheritable ACEs, which
// may let other users write it (C:\ gives Authenticated Users Modify on
// what is created below it). Full control for this process's user, SYSTEM
// and Administrators; read for Everyone only if mode has the others' read
// bit (0o004), as a Unix mode would grant it.
func lockFileSecurity(mode os.FileMode) (*windows.SECURITY_DESCRIPTOR, error) {
	trusted, err := trustedOwners()
	if err != nil {
		return nil, err
	}
	sddl := "D:P(A;;FA;;;SY)(A;;FA;;;BA)(A;;FA;;;" + trusted[0].String() + ")"
	if mode&0o004 != 0 {
		sddl += "(A;;FR;;;WD)"
	}
	return windows.SecurityDescriptorFromString(sddl)
}

// ownerRuns asks nothing on Windows: the user a process runs as is in its
// token, which another user's process does not let a non-administrator
// open. In its place, only a file with a trusted owner is read at all
// (checkOwner), and one TryAcquire creates lets only its creator's user,
// SYSTEM and Administrators write it (lockFileSecurity).
func ownerRuns(int, fileOwner) error { return nil }

// openLockDir refuses a directory whose owner SID is not trusted: its
// owner may change its ACL, and so remove or plant lock files. Windows
// guards a directory with ACLs, not the mode bits os.Lstat synthesizes. It
// keeps no directory open: lock files are opened by their whole path.
func openLockDir(dir string) (*os.File, error) {
	h, err := sys.createFile(dir, windows.READ_CONTROL, shareAll, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, nil)
	if err != nil {
		return nil, &fs.PathError{Op: "CreateFile", Path: dir, Err: err}
	}
	defer sys.closeHandle(h)
	_, err = checkOwner(h, dir, "directory")
	return nil, err
}
