package flowlib // want package:"has wrappers"

// flowlib exports what it does with PIDs as facts.

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// State is a daemon's state file.
type State struct {
	Pid  int    `json:"pid"`
	Addr string `json:"addr"`
}

func Read(path string) (int, error) { // want Read:"pid flow\\(pid result 0<-read checked=false; flags 0x0\\)"
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}

func Load(path string, st *State) error { // want Load:"pid flow\\(pid param 1\\*<-read checked=false; flags 0x0\\)"
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, st)
}

func maybeSignal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

func Term(pid int) error { return maybeSignal(pid, syscall.SIGTERM) } // want Term:"pid flow\\(signals param 0 sig=-1; flags 0x0\\)"

func Alive(pid int) bool { return syscall.Kill(pid, 0) == nil } // want Alive:"pid flow\\(answer result 0<-param 0 checked=false; flags 0x0\\)"
