// Package fields: the flow tells the fields of a struct apart.
package fields

import (
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
)

type state struct {
	Pid   int `json:"pid"`
	Child int `json:"-"`
}

type runner struct {
	cmd   *exec.Cmd
	state state
}

func (r *runner) load(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, &r.state)
}

// The child's PID is set beside the decoded state: only the state's is stored.
func (r *runner) start() error {
	if err := r.cmd.Start(); err != nil {
		return err
	}
	r.state.Child = r.cmd.Process.Pid
	return nil
}

func (r *runner) stopChild() error { return r.cmd.Process.Kill() }

func (r *runner) stopOld() error {
	return syscall.Kill(r.state.Pid, syscall.SIGTERM) // want `signal syscall.Kill from field state.Pid decoded from the file path at fields.go:26`
}

func twoFields(path string, cmd *exec.Cmd) error {
	var st state
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	keep := struct{ stored, child int }{st.Pid, cmd.Process.Pid}
	syscall.Kill(keep.child, syscall.SIGTERM)
	return syscall.Kill(keep.stored, syscall.SIGTERM) // want `signal syscall.Kill from field stored decoded from the file path at fields.go:47`
}
