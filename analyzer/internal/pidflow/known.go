package pidflow

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/pidlint/pidlint/analyzer/internal/calls"
)

// This file is what the functions pidlint knows write, in the transfer:
// reads from storage, decoders, functions that hand data on, probes'
// answers, identities read, the own PID. observe.go is what they reach.

// passPackages are the packages whose functions hand on what their
// arguments hold: a parse, a trim, a split, a reader over a file.
var passPackages = map[string]bool{
	"strings": true, "bytes": true, "strconv": true, "bufio": true, "io": true, "io/ioutil": true,
	"path": true, "path/filepath": true, "unicode/utf8": true, "encoding/json": true, "encoding/gob": true,
	"encoding/xml": true, "encoding/binary": true, "encoding/hex": true, "encoding/base64": true,
	"gopkg.in/yaml.v2": true, "gopkg.in/yaml.v3": true, "sigs.k8s.io/yaml": true,
	"github.com/BurntSushi/toml": true, "github.com/pelletier/go-toml": true, "github.com/pelletier/go-toml/v2": true,
}

// known runs a call of a function pidlint knows (or passes over it).
func (c *call) known(observe bool) {
	u, ins, fn, args := c.u, c.ins, c.fn, c.args
	if observe {
		c.observeKnown()
		return
	}
	path, recv, name := pkgPath(fn), calls.RecvTypeName(fn), fn.Name()
	r := calls.RolesOf(fn, u.f.cls.Safeprobe)
	switch {
	case r&calls.Getpid != 0 || r&calls.Safeprobe != 0 && name == "Self":
		c.writeResult(0, labels{{kind: ownPID, param: -1}})
	case r&calls.ReadFile != 0 && len(args) > 0, path == "os" && (name == "Readlink" || name == "Create") && len(args) > 0,
		path == "path/filepath" && name == "EvalSymlinks" && len(args) > 0:
		c.readCall()
		if r&calls.CreateFile == 0 && r&calls.ReadFile != 0 && namesPIDFile(args[0]) {
			// A read that succeeds says the PID file exists too.
			c.writeResult(1, labels{{kind: exists, param: -1, pol: +1, pos: ins.Pos()}})
		}
	case (path == "os" || path == "syscall") && (name == "Getenv" || name == "LookupEnv") && len(args) == 1:
		if s, ok := stringConst(args[0]); ok && strings.Contains(strings.ToLower(s), "pid") {
			src := u.f.source(ins, Env, nil, -1)
			src.Subject = s
			c.writeResult(0, labels{storedLabel(src)})
		}
	case r&calls.SafeInspect != 0 && firstString(args) >= 0:
		src := u.f.source(ins, LockFile, args, firstString(args))
		src.checked, src.bounded, src.Lock = true, true, true
		c.writeResult(0, labels{storedLabel(src)})
	case r&calls.Safeprobe != 0 && name == "Lookup" && len(args) == 1:
		c.writeResult(0, c.identityOf(args[0], checkIdentity))
	case r&(calls.SafeParsePID|calls.FindProcess) != 0 && len(args) == 1:
		c.pass()
		if r&calls.FindProcess != 0 {
			c.writeResult(1, c.answerOf(args[0], false, +1))
		}
	case r&calls.Kill != 0 && len(args) == 2 && isZero(args[1]),
		r&calls.ProcessSignal != 0 && len(args) == 2 && isZero(args[1]),
		r&calls.SafeCheck != 0 && len(args) == 1:
		c.writeResult(0, c.answerOf(args[0], r&calls.ProcessSignal != 0, +1))
	case r&calls.SafeAlive != 0 && len(args) == 1:
		c.writeResult(0, c.answerOf(args[0], false, +1))
	case isGopsutil(path) && (name == "PidExists" || name == "PidExistsWithContext") && len(args) > 0:
		c.writeResult(0, c.answerOf(args[len(args)-1], false, +1))
	case isGopsutil(path) && recv == "Process" && strings.HasPrefix(name, "IsRunning"):
		c.writeResult(0, c.answerOf(args[0], true, +1))
	case isGopsutil(path) && (name == "NewProcess" || name == "NewProcessWithContext") && len(args) > 0,
		isWindows(path) && name == "OpenProcess" && len(args) == 3:
		c.copyResult(0, args[len(args)-1])
	case isGopsutil(path) && recv == "Process" && identityMethod(name) != 0:
		c.writeResult(0, c.identityOf(args[0], identityMethod(name)))
	case isWindows(path) && name == "GetProcessTimes" && len(args) == 5:
		u.write(u.pointee(unconvert(args[1])), c.identityOf(args[0], checkIdentity))
	case isWindows(path) && name == "QueryFullProcessImageName" && len(args) == 4:
		u.write(u.pointee(unconvert(args[2])), c.identityOf(args[0], checkName))
	case path == "errors" && name == "Is" && len(args) == 2, path == "os" && strings.HasPrefix(name, "Is") && len(args) == 1:
		c.writeResult(0, errorTest(c))
	case r&calls.Command != 0:
		psCommand(c)
	case path == "os/exec" && recv == "Cmd" && (name == "Output" || name == "CombinedOutput"):
		c.copyResult(0, args[0])
	case r&calls.StatFile != 0 && len(args) == 1 && namesPIDFile(args[0]):
		c.writeResult(1, labels{{kind: exists, param: -1, pol: +1, pos: ins.Pos()}})
	case isFlock(path) && (name == "New" || name == "NewFlock") && len(args) > 0:
		c.writeResult(0, labels{{kind: fileOf, param: -1, key: pathKey(args[0])}})
	case decode(c, path, recv, name):
	case scan(c, path, recv, name):
	case passPackages[path] || path == "os" && recv == "File" && name == "Fd" || path == "fmt" && (strings.HasPrefix(name, "Sprint") || strings.HasPrefix(name, "Append")):
		c.pass()
	default:
		foreignAnswerOrIdentity(c)
	}
}

func pkgPath(fn *types.Func) string {
	if fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

func isGopsutil(path string) bool {
	return strings.HasPrefix(path, "github.com/shirou/gopsutil") && strings.HasSuffix(path, "/process")
}

func isWindows(path string) bool { return path == "golang.org/x/sys/windows" || path == "syscall" }

func isFlock(path string) bool {
	return strings.HasSuffix(path, "/flock") || strings.HasSuffix(path, "/go-flock")
}

// identityMethod is the check a gopsutil Process method's result
// allows: its creation time, or a name.
func identityMethod(name string) check {
	switch strings.TrimSuffix(name, "WithContext") {
	case "CreateTime":
		return checkIdentity
	case "Name", "Exe", "Cmdline", "CmdlineSlice":
		return checkName
	}
	return 0
}

// isZero reports whether a signal argument is 0 or nil: a probe, or no
// signal.
func isZero(v ssa.Value) bool {
	n, ok := intConst(v)
	return ok && n == 0 || isNil(v)
}

// writeResult writes ls at result i of the call.
func (c *call) writeResult(i int, ls labels) {
	u, ins := c.u, c.ins
	if to, ok := result(ins, i); ok {
		u.write(to, ls)
	}
}

// copyResult copies what v holds to result i of the call.
func (c *call) copyResult(i int, v ssa.Value) {
	u, ins := c.u, c.ins
	if to, ok := result(ins, i); ok {
		u.copyTo(to, u.content(v))
	}
}

// pass hands what every argument holds to the call's results that are
// neither errors nor bools.
func (c *call) pass() {
	ins, args := c.ins, c.args
	res := ins.Common().Signature().Results()
	for i := range res.Len() {
		t := res.At(i).Type()
		if types.Identical(t, types.Universe.Lookup("error").Type()) || types.Identical(t.Underlying(), types.Typ[types.Bool]) {
			continue
		}
		for _, a := range args {
			c.copyResult(i, a)
		}
	}
}

// identityOf returns the identity labels of the PIDs v holds: reading
// what c allows of the processes they name.
func (c *call) identityOf(v ssa.Value, k check) labels {
	u := c.u
	var out labels
	for _, l := range u.pidLabels(v, "", true).ofKind(stored) {
		d := l.of(identity)
		d.pol = int(k)
		out.add(d)
	}
	return out
}

// answerOf returns a probe's answer labels for the PIDs v holds (deep:
// a process object), with polarity pol.
func (c *call) answerOf(v ssa.Value, deep bool, pol int) labels {
	u, ins := c.u, c.ins
	var out labels
	for _, l := range u.pidLabels(v, "", deep).ofKind(stored) {
		d := l.of(answer)
		d.pol, d.pos = pol, ins.Pos()
		out.add(d)
	}
	return out
}

// readCall runs a read of a file: of a /proc file naming a PID, an
// identity; of the kernel's lists, nothing; of storage, a stored PID,
// unless the function starts the process that wrote it.
func (c *call) readCall() {
	u, ins, fn, args := c.u, c.ins, c.fn, c.args
	path := args[0]
	if k := identityFile(path); k != 0 {
		if ls := c.identityOf(path, k); len(ls) > 0 {
			c.writeResult(0, ls)
			return
		}
	}
	switch fn.Name() {
	case "Readlink", "EvalSymlinks":
		return // a link's target: no PID
	case "Create":
		c.writeResult(0, labels{{kind: fileOf, param: -1, key: pathKey(path)}})
		return
	}
	c.writeResult(0, labels{{kind: fileOf, param: -1, key: pathKey(path)}})
	if kernelPath(path) || startsProcess(u) {
		return
	}
	c.writeResult(0, labels{storedLabel(u.f.source(ins, FileRead, args, 0))})
}

// knownPackages are the packages whose functions the flow knows by name:
// a fact of theirs is never asked for.
var knownPackages = map[string]bool{
	"os": true, "os/exec": true, "syscall": true, "fmt": true, "errors": true, "database/sql": true, "log": true,
	"golang.org/x/sys/unix": true, "golang.org/x/sys/windows": true,
}

// knownPackage reports whether the flow knows a package's functions.
func knownPackage(path string) bool {
	return knownPackages[path] || passPackages[path] || decoderPackages[path] || isGopsutil(path) || isFlock(path) ||
		strings.HasSuffix(path, "/safeprobe")
}
