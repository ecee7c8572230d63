package pidflow

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// This file is what decoders, scanners and error tests write: a decoded
// struct's fields, the variables fmt.Sscan and a database row fill, and
// the answer errors.Is gives about a probe's error.

// decoderPackages are the packages whose Unmarshal(data, v) and
// (*Decoder).Decode(v) fill v from data.
var decoderPackages = map[string]bool{
	"encoding/json": true, "encoding/xml": true, "encoding/gob": true,
	"gopkg.in/yaml.v2": true, "gopkg.in/yaml.v3": true, "sigs.k8s.io/yaml": true,
	"github.com/BurntSushi/toml": true, "github.com/pelletier/go-toml": true, "github.com/pelletier/go-toml/v2": true,
}

// decode runs a decoder: what the data held fills the target, each
// stored PID as a Decoded source of its own. It reports whether the call
// was one.
func decode(c *call, path, recv, name string) bool {
	u, ins, args := c.u, c.ins, c.args
	var data, target ssa.Value
	switch {
	case decoderPackages[path] && recv == "" && strings.HasPrefix(name, "Unmarshal") && len(args) >= 2,
		path == "github.com/BurntSushi/toml" && recv == "" && name == "Decode" && len(args) == 2:
		data, target = args[0], args[1]
	case decoderPackages[path] && recv == "Decoder" && name == "Decode" && len(args) == 2:
		data, target = args[0], args[1]
	case path == "encoding/binary" && name == "Read" && len(args) == 3:
		data, target = args[0], args[2]
	case path == "github.com/BurntSushi/toml" && name == "DecodeFile" && len(args) == 2:
		src := u.f.source(ins, FileRead, args, 0)
		u.fill(args[1], labels{storedLabel(u.f.decoded(ins, src))})
		return true
	case strings.HasPrefix(path, "github.com/spf13/viper") && strings.HasPrefix(name, "Unmarshal") && len(args) > 0:
		src := u.f.source(ins, FileRead, nil, -1)
		src.Subject = "viper's configuration"
		u.fill(args[len(args)-1], labels{storedLabel(u.f.decoded(ins, src))})
		return true
	default:
		return false
	}
	var out labels
	for _, l := range u.read(u.content(data)) {
		switch {
		case l.kind != stored:
		case l.src != nil && path != "encoding/binary":
			out.add(storedLabel(u.f.decoded(ins, l.src)))
		default:
			out.add(l)
		}
	}
	u.fill(target, out)
	return true
}

// scan runs a call that fills variables or a buffer from a reader: fmt's
// Sscan and Fscan families, a database row's Scan, sqlx's Get and Select,
// Read into a buffer. It reports whether the call was one.
func scan(c *call, path, recv, name string) bool {
	u, ins, args := c.u, c.ins, c.args
	var from labels
	var targets []place
	var pointers []ssa.Value
	pointees := func(vs []ssa.Value) { pointers = append(pointers, vs...) }
	switch {
	case path == "fmt" && (strings.HasPrefix(name, "Sscan") || strings.HasPrefix(name, "Fscan")) && len(args) >= 2:
		from = u.read(u.content(args[0]))
		if elems, ok := varargs(args[len(args)-1]); ok {
			pointees(elems)
		}
	case name == "Scan" && (recv == "Row" || recv == "Rows") && len(args) >= 1:
		from = labels{storedLabel(u.f.source(ins, Row, nil, -1))}
		if elems, ok := varargs(args[len(args)-1]); ok {
			pointees(elems)
		}
	case strings.HasSuffix(path, "/sqlx") && (name == "Get" || name == "Select") && len(args) >= 2:
		from = labels{storedLabel(u.f.source(ins, Row, nil, -1))}
		pointees(args[1:2]) // db.Get(&dest, …), sqlx.Get(db, &dest, …)
	case (path == "os" && recv == "File" || path == "bufio" && recv == "Reader") && (name == "Read" || name == "ReadAt") && len(args) >= 2:
		from = u.read(u.content(args[0]))
		targets = append(targets, u.content(args[1]).plus("[]"))
	case path == "io" && (name == "ReadFull" || name == "ReadAtLeast") && len(args) >= 2:
		from = u.read(u.content(args[0]))
		targets = append(targets, u.content(args[1]).plus("[]"))
	default:
		return false
	}
	for _, t := range targets {
		u.write(t, from.ofKind(stored))
	}
	for _, p := range pointers {
		u.fill(p, from.ofKind(stored))
	}
	return true
}

// errorTest returns what errors.Is(err, target), os.IsNotExist(err) and
// their kin say about a probe's answer or a PID file's existence: true
// means dead for ESRCH and os.ErrProcessDone, alive for EPERM, missing
// for fs.ErrNotExist, present for fs.ErrExist.
func errorTest(c *call) labels {
	u, fn, args := c.u, c.fn, c.args
	var sign int
	var k kind
	switch fn.Name() {
	case "Is":
		t := unconvert(args[1])
		switch {
		case isErrno(t, "ESRCH") || isGlobalVar(t, "os", "ErrProcessDone"):
			sign, k = -1, answer
		case isErrno(t, "EPERM"):
			sign, k = +1, answer
		case isGlobalVar(t, "os", "ErrNotExist") || isGlobalVar(t, "io/fs", "ErrNotExist"):
			sign, k = -1, exists
		case isGlobalVar(t, "os", "ErrExist") || isGlobalVar(t, "io/fs", "ErrExist"):
			sign, k = +1, exists
		}
	case "IsNotExist":
		sign, k = -1, exists
	case "IsExist":
		sign, k = +1, exists
	case "IsPermission":
		sign, k = +1, answer
	}
	var out labels
	for _, l := range u.read(u.content(args[0])).ofKind(k) {
		l.pol = sign
		out.add(l)
	}
	return out
}

// isErrno reports whether v is the errno constant name (syscall.ESRCH,
// unix.ESRCH).
func isErrno(v ssa.Value, name string) bool {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	n, ok := types.Unalias(c.Type()).(*types.Named)
	if !ok || n.Obj().Name() != "Errno" || n.Obj().Pkg() == nil {
		return false
	}
	want, ok := n.Obj().Pkg().Scope().Lookup(name).(*types.Const)
	return ok && constant.Compare(c.Value, token.EQL, want.Val())
}

// isGlobalVar reports whether v loads the package variable path.name
// (os.ErrProcessDone).
func isGlobalVar(v ssa.Value, path, name string) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok {
		return false
	}
	g, ok := ld.X.(*ssa.Global)
	return ok && g.Name() == name && g.Pkg != nil && g.Pkg.Pkg.Path() == path
}
