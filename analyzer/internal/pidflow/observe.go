package pidflow

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// This file is what the functions pidlint knows reach, once the labels
// have converged: signals, locks, comparisons, checks of a PID's range,
// and what PL008 asks of a function (removes, probes, writes its PID,
// creates a file with O_EXCL).

// observeKnown looks at a call of a function pidlint knows.
func (c *call) observeKnown() {
	u, ins, fn, args := c.u, c.ins, c.fn, c.args
	path, recv, name := pkgPath(fn), calls.RecvTypeName(fn), fn.Name()
	r := calls.RolesOf(fn, u.f.cls.Safeprobe)
	observeSignal(c, r, path, recv, name)
	switch {
	case r&(calls.Kill|calls.ProcessSignal) != 0 && len(args) == 2 && isZero(args[1]),
		r&(calls.FindProcess|calls.SafeAlive|calls.SafeCheck|calls.SafeProbe) != 0,
		isGopsutil(path) && (strings.HasPrefix(name, "PidExists") || recv == "Process" && strings.HasPrefix(name, "IsRunning")):
		c.blindProbe()
	case r&calls.Safeprobe == 0 && calls.LivenessPolarity(name) != 0 && fn.Pkg() != u.f.pass.Pkg && calls.TakesInt(fn):
		c.blindProbe() // procutil.IsRunning(pid)
	}
	switch {
	case r&calls.SafeLock != 0 && firstString(args) >= 0:
		key := pathKey(args[firstString(args)])
		u.f.safeLocked[qualifiedKey(key, u.obj)] = true
		c.lock(key)
	case r&calls.LockFile != 0 && len(args) >= 2 && takesLock(fn, args[1]),
		isWindows(path) && name == "LockFileEx" && len(args) > 0,
		isFlock(path) && recv == "Flock" && (strings.HasPrefix(name, "TryLock") || strings.HasPrefix(name, "TryRLock") || name == "Lock" || name == "RLock"):
		c.lockFile(args[0])
	case strings.Contains(path, "lockedfile") || strings.HasSuffix(path, "/filelock"):
		if len(args) > 0 {
			c.lockFile(args[0])
		}
	case r&calls.SafeVerify != 0 || verifierName(fn, u.f.pass.Pkg):
		for _, a := range args {
			for _, l := range u.pidLabels(a, "", true) {
				if l.kind == stored || l.kind == identity {
					u.checkPID(l, paramCheck{checks: checkIdentity})
				}
			}
		}
	case isComparison(path, recv, name):
		for _, a := range args {
			u.verify(u.pidLabels(a, "", true))
		}
	case r&(calls.SafeParsePID|calls.SafeValidatePID) != 0 && len(args) == 1:
		for _, l := range u.read(u.content(args[0])).ofKind(stored) {
			u.checkPID(l, paramCheck{checked: true, bounded: true})
		}
	case path == "strconv" && wideParse(name, args):
		for _, l := range u.read(u.content(args[0])).ofKind(stored) {
			u.checkPID(l, paramCheck{wide: ins.Pos()})
		}
	case r&calls.RemoveFile != 0:
		u.sum.flags |= fRemoves
	case (r&calls.CreateFile != 0 || (path == "syscall" || path == calls.Unix) && name == "Open") && len(args) == 3 && exclusive(fn, args[1]):
		u.f.creates = append(u.f.creates, &create{call: ins, unit: u, path: args[0]})
	}
	if isWrite(r, fn) {
		for _, a := range args {
			for _, pl := range u.subtree(u.content(a)) {
				if pl.l.kind == ownPID {
					u.sum.flags |= fOwnPID
				}
			}
		}
	}
}

// blindProbe notes a probe that asks whether a PID is alive, not whose
// it is.
func (c *call) blindProbe() {
	u, ins := c.u, c.ins
	u.sum.flags |= fBlindProbe
	u.sum.probe(ins.Pos())
}

// takesLock reports whether flock's or fcntl's operation argument takes
// a lock: flock with LOCK_SH or LOCK_EX, fcntl with anything but
// F_GETLK (the values of fn's package, for the OS it builds for).
func takesLock(fn *types.Func, op ssa.Value) bool {
	n, ok := intConst(op)
	if !ok {
		return true
	}
	val := func(name string) (int64, bool) {
		c, ok := fn.Pkg().Scope().Lookup(name).(*types.Const)
		if !ok {
			return 0, false
		}
		v, exact := constant.Int64Val(c.Val())
		return v, exact
	}
	if fn.Name() == "Flock" {
		sh, ok1 := val("LOCK_SH")
		ex, ok2 := val("LOCK_EX")
		return !ok1 || !ok2 || n&(sh|ex) != 0
	}
	for _, get := range []string{"F_GETLK", "F_OFD_GETLK"} {
		if g, ok := val(get); ok && g == n {
			return false
		}
	}
	return true
}

// lockFile notes a kernel lock on the file v is (a descriptor, a handle,
// a gofrs/flock or lockedfile object, or a path).
func (c *call) lockFile(v ssa.Value) {
	u := c.u
	keys := 0
	for _, l := range u.pidLabels(v, "", true).ofKind(fileOf) {
		c.lock(l.key)
		keys++
	}
	if keys == 0 {
		if isString(v.Type()) {
			c.lock(pathKey(v))
		} else {
			c.lock("")
		}
	}
}

// lock notes a kernel lock taken or tested on the file a key names (""
// unknown): the unit's, for the PIDs it reads from that file or signals,
// and a parameter's for the summary.
func (c *call) lock(key string) {
	u := c.u
	u.sum.flags |= fLocks | fVerifies
	if strings.HasPrefix(key, paramKeyPrefix) {
		u.sum.lock(key)
	}
	u.locks[qualifiedKey(key, u.obj)] = true
}

// verifierName reports whether another package's function says by its
// name that it checks whose a process is (verifyProcess, sameProcess).
func verifierName(fn *types.Func, pkg *types.Package) bool {
	if fn.Pkg() == pkg {
		return false
	}
	n := strings.ToLower(fn.Name())
	return strings.Contains(n, "verify") || strings.Contains(n, "sameprocess") || strings.Contains(n, "issameproc")
}

// isComparison reports whether a function compares its arguments:
// strings.EqualFold, bytes.HasPrefix, reflect.DeepEqual, a regexp's match.
func isComparison(path, recv, name string) bool {
	switch path {
	case "strings", "bytes":
		for _, p := range []string{"Equal", "Contains", "HasPrefix", "HasSuffix", "Compare", "Index"} {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
	case "reflect":
		return name == "DeepEqual"
	case "slices":
		return strings.HasPrefix(name, "Equal") || strings.HasPrefix(name, "Contains") || strings.HasPrefix(name, "Index")
	case "regexp":
		return recv == "Regexp" && (strings.HasPrefix(name, "Match") || strings.HasPrefix(name, "Find"))
	case "path", "path/filepath":
		return name == "Match"
	}
	return false
}

// wideParse reports whether a strconv call parses wider than 32 bits:
// Atoi, or ParseInt or ParseUint with a bit size of 0 or over 32.
func wideParse(name string, args []ssa.Value) bool {
	switch name {
	case "Atoi":
		return len(args) == 1
	case "ParseInt", "ParseUint":
		bits, ok := intConst(args[len(args)-1])
		return len(args) == 3 && ok && (bits == 0 || bits > 32)
	}
	return false
}

// isWrite reports whether a call writes its arguments to a file or a
// stream.
func isWrite(r calls.Role, fn *types.Func) bool {
	if r&calls.WriteFile != 0 {
		return true
	}
	n := fn.Name()
	if p := pkgPath(fn); (p == "syscall" || p == calls.Unix) && (n == "Write" || n == "Pwrite") {
		return true
	}
	return fn.Signature().Recv() != nil && (n == "Write" || n == "WriteString" || n == "WriteAt" || n == "Encode")
}

// exclusive reports whether the flag of fn (os.OpenFile) has O_EXCL
// set, as fn's package defines it for the OS it builds for.
func exclusive(fn *types.Func, flag ssa.Value) bool {
	c, ok := fn.Pkg().Scope().Lookup("O_EXCL").(*types.Const)
	if !ok {
		return false
	}
	excl, ok := constantInt(c)
	if !ok || excl == 0 {
		return false
	}
	var has func(v ssa.Value, depth int) bool
	has = func(v ssa.Value, depth int) bool {
		if n, ok := intConst(v); ok {
			return n&excl != 0
		}
		switch x := unconvert(v).(type) {
		case *ssa.BinOp:
			return depth < 4 && x.Op == token.OR && (has(x.X, depth+1) || has(x.Y, depth+1))
		case *ssa.Phi:
			for _, e := range x.Edges {
				if depth < 4 && has(e, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return has(flag, 0)
}
