package safeprobe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Whose lock files, takeover markers and lock directories are believed: a
// file's owner SID must be this process's user, its token's default owner,
// BUILTIN\Administrators, SYSTEM or TrustedInstaller (trustedOwner), as a
// Unix lock file must be the caller's or root's: anything else another user
// may have written. Nor may its DACL let anyone else write it, or, for a
// directory, remove or rename what it holds (checkDACL). A lock file,
// takeover marker or lock directory this package creates gets a DACL that
// lets no one else write it.

// fileOwner is a file's owner SID in its string form (S-1-5-...), which
// names one SID and, unlike a *windows.SID, compares with ==.
type fileOwner string

// ownerOf is the fileOwner of sid.
func ownerOf(sid *windows.SID) fileOwner { return fileOwner(sid.String()) }

// checkOwner returns the owner of h's file or directory, and refuses one
// whose owner SID is not trusted. what names it in the error.
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
// BUILTIN\Administrators, SYSTEM and TrustedInstaller. The last three are
// trusted as root is on Unix: they can do anything anyway, an elevated
// process's files are owned by Administrators, and TrustedInstaller owns
// the system's own directories (C:\, C:\Windows). Any other owner is
// another user, who may have written the file.
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
	sid, err := windows.StringToSid(trustedInstallerSID)
	if err != nil {
		return nil, fmt.Errorf("TrustedInstaller's SID: %w", err)
	}
	sids = append(sids, sid)
	trusted.sids = sids
	return sids, nil
}

// trustedInstallerSID is NT SERVICE\TrustedInstaller's, the same on every
// machine (a service SID is a hash of the service's name).
const trustedInstallerSID = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"

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
// bit (0o004), as a Unix mode would grant it. Takeover markers and lock
// directories this package creates get it with mode 0600.
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

// Access rights that another principal must not have, by what they allow.
const (
	// writeFileRights rewrite, remove or rename a file, or grant those.
	writeFileRights = windows.FILE_WRITE_DATA | windows.FILE_APPEND_DATA | windows.DELETE |
		windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_WRITE | windows.GENERIC_ALL
	// openFileRights open a file to lock it (LockFileEx needs read or
	// write access), or grant that.
	openFileRights = windows.FILE_READ_DATA | windows.GENERIC_READ | writeFileRights
	// changeDirRights remove or rename what a directory holds
	// (FILE_DELETE_CHILD), the directory itself, or grant those. Adding
	// entries does not: as in a sticky Unix directory, others' stay.
	changeDirRights = fileDeleteChild | windows.DELETE | windows.WRITE_DAC | windows.WRITE_OWNER | windows.GENERIC_ALL
	fileDeleteChild = 0x40 // FILE_DELETE_CHILD
)

// checkDACL refuses h's file or directory (named by what and path) if its
// DACL grants any of rights to a principal that is not trusted.
func checkDACL(h windows.Handle, path, what string, rights uint32) error {
	sd, err := sys.fileDACL(h)
	if err != nil {
		return &fs.PathError{Op: "GetSecurityInfo", Path: path, Err: err}
	}
	who, granted, err := untrustedGrant(sd, rights)
	if err != nil {
		return &fs.PathError{Op: "GetSecurityInfo", Path: path, Err: err}
	}
	if who != "" {
		return fmt.Errorf("%w: %s: its DACL grants %s access %#x, which lets another user change it", ErrUnsafePath, what, who, granted)
	}
	return nil
}

// aclHeader, aceHeader and allowedACE are ACL, ACE_HEADER and
// ACCESS_ALLOWED_ACE, the layout of an ACL and of an allow ACE (and of a
// callback allow ACE) in it, read here rather than through x/sys's types,
// whose fields older versions do not export.
type (
	aclHeader struct {
		revision, sbz1 uint8
		size, count    uint16
		sbz2           uint16
	}
	aceHeader struct {
		typ, flags uint8
		size       uint16
	}
	allowedACE struct {
		hdr      aceHeader
		mask     uint32
		sidStart uint32
	}
)

// ACE types and flags read here.
const (
	aceAllowed               = 0x0 // ACCESS_ALLOWED_ACE_TYPE
	aceAllowedObject         = 0x5
	aceAllowedCallback       = 0x9
	aceAllowedCallbackObject = 0xb
	aceInheritOnly           = 0x8 // INHERIT_ONLY_ACE: for children, not the object
)

// untrustedGrant names the first principal that sd's DACL allows any of
// rights and that is not trusted (trustedOwners, and OWNER RIGHTS), with
// the rights it is allowed; who is "" if there is none. Only allow ACEs
// are read: a deny ACE that would take the rights back is not weighed, so
// a DACL may be refused that Windows would not let write, never the other
// way round. An object allow ACE, whose SID sits elsewhere, counts as
// another principal's. A NULL DACL allows everyone everything.
func untrustedGrant(sd *windows.SECURITY_DESCRIPTOR, rights uint32) (who string, granted uint32, err error) {
	dacl, _, err := sd.DACL()
	if errors.Is(err, windows.ERROR_OBJECT_NOT_FOUND) || err == nil && dacl == nil {
		return "Everyone (a NULL DACL)", rights, nil // no DACL, or a NULL one: no restriction
	}
	if err != nil {
		return "", 0, err
	}
	trusted, err := trustedOwners()
	if err != nil {
		return "", 0, err
	}
	acl := (*aclHeader)(unsafe.Pointer(dacl))
	off := unsafe.Sizeof(*acl)
	for i := 0; i < int(acl.count); i++ {
		ace := (*allowedACE)(unsafe.Add(unsafe.Pointer(dacl), off))
		off += uintptr(ace.hdr.size)
		if ace.hdr.flags&aceInheritOnly != 0 || ace.mask&rights == 0 {
			continue
		}
		switch ace.hdr.typ {
		case aceAllowed, aceAllowedCallback:
			sid := (*windows.SID)(unsafe.Pointer(&ace.sidStart))
			if !trustedSID(sid, trusted) {
				return accountName(sid), ace.mask & rights, nil
			}
		case aceAllowedObject, aceAllowedCallbackObject:
			return "the principal of an object ACE", ace.mask & rights, nil
		}
	}
	return "", 0, nil
}

// trustedSID reports whether sid is a trusted owner or OWNER RIGHTS (the
// object's owner, which is checked on its own).
func trustedSID(sid *windows.SID, trusted []*windows.SID) bool {
	if sid.String() == "S-1-3-4" {
		return true
	}
	for _, t := range trusted {
		if sid.Equals(t) {
			return true
		}
	}
	return false
}

// accountName is sid as "DOMAIN\name (S-1-...)", or its string form.
func accountName(sid *windows.SID) string {
	account, domain, _, err := sid.LookupAccount("")
	if err != nil {
		return sid.String()
	}
	if domain != "" {
		account = domain + `\` + account
	}
	return account + " (" + sid.String() + ")"
}

// createMarker creates the file name for a takeover marker to be written
// into, failing if anything is there, with the DACL of a lock file of mode
// 0600: the directory's inheritable ACEs may let another user rewrite it
// (the owner alone is checked when it is read) and make a holder leave.
func createMarker(name string) (*os.File, error) {
	sd, err := lockFileSecurity(0o600)
	if err != nil {
		return nil, err
	}
	h, err := sys.createFile(name, windows.GENERIC_WRITE, windows.FILE_SHARE_READ, windows.CREATE_NEW,
		windows.FILE_ATTRIBUTE_NORMAL, sd)
	if err != nil {
		return nil, &fs.PathError{Op: "CreateFile", Path: name, Err: err}
	}
	return os.NewFile(uintptr(h), name), nil
}

// makeLockDir makes the directory dir, with the DACL of a lock file of
// mode 0600, not its parent's inheritable ACEs; the directories above it,
// if missing, get their parents' as os.MkdirAll makes them, and
// checkAncestors then judges them.
func makeLockDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	sd, err := lockFileSecurity(0o600)
	if err != nil {
		return err
	}
	if err := sys.createDirectory(dir, sd); err != nil && !errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
		return &fs.PathError{Op: "CreateDirectory", Path: dir, Err: err}
	}
	return nil
}

// ownerRuns asks nothing on Windows: the user a process runs as is in its
// token, which another user's process does not let a non-administrator
// open. In its place, only a file with a trusted owner is read at all
// (checkOwner), and one TryAcquire creates lets only its creator's user,
// SYSTEM and Administrators write it (lockFileSecurity).
//
//	no process, EPERM, zombie, thread ID: nil
func ownerRuns(int, fileOwner) error { return nil }

// openLockDir refuses a directory whose owner SID is not trusted (its
// owner may change its ACL) or whose DACL lets another principal remove or
// rename what it holds: either could remove or plant lock files. Windows
// guards a directory with ACLs, not the mode bits os.Lstat synthesizes. A
// junction or directory symbolic link is refused, as NewLockDir refuses a
// symlink on Unix. It keeps no directory open: lock files are opened by
// their whole path.
func openLockDir(dir string) (*os.File, error) {
	target, err := checkComponent(dir, changeDirRights)
	if err == nil && target != "" {
		err = fmt.Errorf("%w: %s is a junction or symbolic link (to %s)", ErrUnsafePath, dir, target)
	}
	return nil, err
}
