package safeprobe

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"golang.org/x/sys/windows"
)

// Junctions above a lock path. Wine (8) makes no junctions: its
// FSCTL_SET_REPARSE_POINT fails with ERROR_NOT_SUPPORTED and
// CreateSymbolicLink makes nothing. So a junction, its owner and where it
// leads are injected through the OS layer over real directories, and the
// one test that makes a real junction skips under Wine, saying so.

// fakeJunction is a real directory that the OS layer shows as a junction:
// opened as itself (FILE_FLAG_OPEN_REPARSE_POINT) it is a reparse point
// owned by owner; its final path, and the final path of anything opened
// below it, is under target.
type fakeJunction struct {
	owner  string // a SID
	target string

	mu sync.Mutex // target may change while a walk runs
}

func (j *fakeJunction) leadsTo() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.target
}

func (j *fakeJunction) repoint(target string) {
	j.mu.Lock()
	j.target = target
	j.mu.Unlock()
}

// injectJunctions makes each path of junctions a junction, through the OS
// layer, for the rest of the test; onOpen, if set, runs at each
// CreateFile with the path opened.
func injectJunctions(t *testing.T, junctions map[string]*fakeJunction, onOpen func(path string)) {
	t.Helper()
	saved, opened := openedHandles(t, onOpen)
	// junctionOf is the junction h was opened at or below, what of its
	// path is below it, and whether it is the junction opened as itself.
	junctionOf := func(h windows.Handle) (j *fakeJunction, below string, itself bool) {
		path, flags := opened(h)
		for dir, j := range junctions {
			if strings.EqualFold(path, dir) || strings.HasPrefix(strings.ToLower(path), strings.ToLower(dir)+`\`) {
				return j, path[len(dir):], path[len(dir):] == "" && flags&windows.FILE_FLAG_OPEN_REPARSE_POINT != 0
			}
		}
		return nil, "", false
	}
	sys.fileInfo = func(h windows.Handle) (windows.ByHandleFileInformation, error) {
		fi, err := saved.fileInfo(h)
		if _, _, itself := junctionOf(h); itself {
			fi.FileAttributes |= windows.FILE_ATTRIBUTE_REPARSE_POINT
		}
		return fi, err
	}
	sys.fileOwner = func(h windows.Handle) (*windows.SID, error) {
		if j, _, itself := junctionOf(h); itself {
			return windows.StringToSid(j.owner)
		}
		return saved.fileOwner(h)
	}
	sys.finalPath = func(h windows.Handle) (string, error) {
		// The reparse point itself has its own path; what was opened
		// through it, its target's.
		if j, below, itself := junctionOf(h); j != nil && !itself {
			return `\\?\` + j.leadsTo() + below, nil
		}
		return saved.finalPath(h)
	}
}

// ownSID is this process's user's SID.
func ownSID(t *testing.T) string {
	t.Helper()
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	return user.User.Sid.String()
}

// TestWindowsForeignJunctionAboveLockRefused: another user made a missing
// directory on the lock path a junction to a trusted directory. Opened
// following reparse points (FILE_FLAG_BACKUP_SEMANTICS alone), as the walk
// did, it is its trusted target; the junction itself is the other user's,
// who may re-point it so that a second process locks a second file at the
// same path. Every entry point refuses it, naming it and its owner, and
// makes nothing. The junction is injected through the OS layer.
func TestWindowsForeignJunctionAboveLockRefused(t *testing.T) {
	root := lockTestDir(t)
	trusted, j := filepath.Join(root, "a"), filepath.Join(root, "j")
	for _, d := range []string{trusted, j} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	injectJunctions(t, map[string]*fakeJunction{j: {owner: foreignSID, target: finalPathOf(trusted)}}, nil)
	path := filepath.Join(j, "x.lock")
	want := "junction or symbolic link " + j
	for _, c := range writingEntryPoints(path, filepath.Join(j, "locks"), os.Kill) {
		if err := c.call(); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), foreignSID) {
			t.Errorf("%s below another user's junction = %v; want ErrUnsafePath naming %q and %s", c.name, err, want, foreignSID)
		}
	}
	if ents, _ := os.ReadDir(j); len(ents) != 0 {
		t.Errorf("something was made below another user's junction: %d entries", len(ents))
	}
}

// TestWindowsJunctionRepointedBetweenWalkAndOpen: a trusted junction is
// followed, and the walk ends with where it led; if it leads elsewhere by
// the time the lock file is opened, the file opened is not the one whose
// directories were checked, and TryAcquire refuses it. Injected through
// the OS layer.
func TestWindowsJunctionRepointedBetweenWalkAndOpen(t *testing.T) {
	root := lockTestDir(t)
	a, b, j := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "j")
	for _, d := range []string{a, b, j} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// Final paths, as the walk compares them (no short names).
	a, b = finalPathOf(a), finalPathOf(b)
	junction := &fakeJunction{owner: ownSID(t), target: a}
	path := filepath.Join(j, "x.lock")
	repoint := false
	injectJunctions(t, map[string]*fakeJunction{j: junction}, func(opened string) {
		if repoint && strings.EqualFold(opened, path) {
			junction.repoint(b)
		}
	})
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire through a trusted junction = %v", err)
	}
	l.Release()
	repoint = true
	l, err = TryAcquire(path, nil)
	if err == nil {
		l.Release()
	}
	if !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "changed meanwhile") || !strings.Contains(err.Error(), a) {
		t.Errorf("TryAcquire with the junction re-pointed before the open = %v; want ErrUnsafePath: not in %s, which was checked", err, a)
	}
	if _, err := NewLockDir(j); !errors.Is(err, ErrUnsafePath) || !strings.Contains(err.Error(), "is a junction or symbolic link") {
		t.Errorf("NewLockDir of a junction = %v; want ErrUnsafePath, as a symlink on Unix", err)
	}
}

// TestWindowsJunctionReal: a junction this user makes, to a directory of
// its own, is followed: the lock is taken in its target, whose final path
// the walk ends in. Where the OS makes no junctions (Wine), it is skipped.
func TestWindowsJunctionReal(t *testing.T) {
	root := lockTestDir(t)
	target, j := filepath.Join(root, "a"), filepath.Join(root, "j")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := makeJunction(j, target); err != nil {
		if errors.Is(err, windows.ERROR_NOT_SUPPORTED) || errors.Is(err, windows.ERROR_INVALID_FUNCTION) {
			t.Skipf("this Windows makes no junctions (Wine 8 does not: %v); the injected tests cover them", err)
		}
		t.Fatal(err)
	}
	defer os.Remove(j)
	path := filepath.Join(j, "x.lock")
	l, err := TryAcquire(path, nil)
	if err != nil {
		t.Fatalf("TryAcquire through this user's junction = %v", err)
	}
	if _, err := os.Stat(filepath.Join(target, "x.lock")); err != nil {
		t.Errorf("the lock file is not in the junction's target: %v", err)
	}
	l.Release()
	if _, err := NewLockDir(j); !errors.Is(err, ErrUnsafePath) {
		t.Errorf("NewLockDir of a junction = %v; want ErrUnsafePath", err)
	}
}

// makeJunction makes dir a junction (a mount point reparse point) to
// target, as mklink /J does.
func makeJunction(dir, target string) error {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(p, windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		os.Remove(dir)
		return err
	}
	buf := mountPointReparseData(target)
	var n uint32
	err = windows.DeviceIoControl(h, windows.FSCTL_SET_REPARSE_POINT, &buf[0], uint32(len(buf)), nil, 0, &n, nil)
	windows.CloseHandle(h)
	if err != nil {
		os.Remove(dir)
	}
	return err
}

// mountPointReparseData is a REPARSE_DATA_BUFFER for a mount point to
// target: the tag, the data's length, then the substitute name (\??\
// target) and the print name, each NUL-terminated UTF-16.
func mountPointReparseData(target string) []byte {
	sub := utf16.Encode([]rune(`\??\` + target))
	print := utf16.Encode([]rune(target))
	names := make([]byte, 0, 2*(len(sub)+len(print)+2))
	for _, c := range append(append(append(sub, 0), print...), 0) {
		names = binary.LittleEndian.AppendUint16(names, c)
	}
	b := make([]byte, 16, 16+len(names))
	binary.LittleEndian.PutUint32(b[0:], windows.IO_REPARSE_TAG_MOUNT_POINT)
	binary.LittleEndian.PutUint16(b[4:], uint16(8+len(names)))
	binary.LittleEndian.PutUint16(b[8:], 0)                     // substitute name offset
	binary.LittleEndian.PutUint16(b[10:], uint16(2*len(sub)))   // its length
	binary.LittleEndian.PutUint16(b[12:], uint16(2*len(sub)+2)) // print name offset
	binary.LittleEndian.PutUint16(b[14:], uint16(2*len(print))) // its length
	return append(b, names...)
}
