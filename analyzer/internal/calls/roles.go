package calls

import "go/types"

// A Role is what a known function does, to pidlint. A function may have
// several (os.Open probes a path and reads a file).
type Role uint32

// Roles of the standard library's functions, and of x/sys/unix's.
const (
	Kill               Role = 1 << iota // syscall.Kill, unix.Kill: kill(pid, sig)
	SyscallKill                         // syscall.Syscall and kin: kill(pid, sig) when the trap is SYS_KILL (Call.PID is set)
	ProcessSignal                       // (*os.Process).Signal(sig)
	ProcessKill                         // (*os.Process).Kill()
	FindProcess                         // os.FindProcess(pid)
	PathProbe                           // os.Stat, Lstat, Open, ReadDir; Stat, Lstat, Access syscalls: their error says whether a path exists
	StatFile                            // os.Stat, os.Lstat: whether a file exists
	ReadFile                            // os.ReadFile, Open, OpenFile, ioutil.ReadFile: data a PID may be stored in
	CreateFile                          // os.OpenFile: with O_EXCL, a file that must not exist yet
	RemoveFile                          // os.Remove, RemoveAll, Rename; Unlink syscalls
	LockFile                            // flock and fcntl locks: Flock, FcntlFlock syscalls
	WriteFile                           // fmt.Fprint*, os.WriteFile, ioutil.WriteFile, io.WriteString
	Command                             // exec.Command, CommandContext: a command line
	StartProcess                        // os.StartProcess, ForkExec syscalls
	Getpid                              // os.Getpid, Getpid syscalls: the own PID
	Exit                                // os.Exit
	Fatal                               // log.Fatal, Fatalf, Fatalln
	ErrorText                           // the error interface's Error method
	ThirdPartySignal                    // gopsutil's Process.Kill, Terminate, SendSignal: a real signal
	ThirdPartyIdentity                  // gopsutil's Process.Name, Exe, Cmdline, CreateTime: whose a process is
)

// Roles of safeprobe's API (see IsSafeprobe for which package that is).
const (
	Safeprobe       Role = 1 << (iota + 20) // any function of safeprobe
	SafeVerify                              // Lookup, Self, Same, SignalOwner[With], Identity.Probe: checks whose a process is
	SafeLock                                // Acquire, TryAcquire, NewLockDir: a kernel lock on the path argument
	SafeAlive                               // Alive(pid) bool: a probe that cannot tell whose the process is
	SafeCheck                               // Check(pid) error: the same, answering with an error
	SafeProbe                               // CheckProcess, Probe: the same, for a process or with a state
	SafeInspect                             // Inspect(path): reads a lock file's holder
	SafeParsePID                            // ParsePID(s): parses a PID and refuses 0 and negatives
	SafeValidatePID                         // ValidatePID(pid): refuses 0 and negatives
)

// Signals are the roles of calls that send a signal (0 or a real one).
const Signals = Kill | SyscallKill | ProcessSignal | ProcessKill

// gopsutil are gopsutil's process packages.
var gopsutil = []string{"github.com/shirou/gopsutil/process", "github.com/shirou/gopsutil/v3/process", "github.com/shirou/gopsutil/v4/process"}

// Sys are the packages whose Kill, Syscall, Stat and such are kill(2) and
// stat(2).
var sys = []string{Syscall, Unix}

// table lists the functions rules know, by package, receiver type and
// name. scan.go finds calls of the same names in a file's tokens.
var table = []struct {
	pkgs  []string
	recv  string // the receiver's type name, for a method
	names []string
	role  Role
}{
	{sys, "", []string{"Kill"}, Kill},
	{sys, "", []string{"Syscall", "RawSyscall", "Syscall6", "RawSyscall6"}, SyscallKill},
	{[]string{"os"}, "Process", []string{"Signal"}, ProcessSignal},
	{[]string{"os"}, "Process", []string{"Kill"}, ProcessKill},
	{[]string{"os"}, "", []string{"FindProcess"}, FindProcess},
	{[]string{"os"}, "", []string{"Stat", "Lstat"}, PathProbe | StatFile},
	{[]string{"os"}, "", []string{"Open"}, PathProbe | ReadFile},
	{[]string{"os"}, "", []string{"ReadDir"}, PathProbe},
	{sys, "", []string{"Stat", "Lstat", "Access"}, PathProbe},
	{[]string{"os", "io/ioutil"}, "", []string{"ReadFile"}, ReadFile},
	{[]string{"os"}, "", []string{"OpenFile"}, ReadFile | CreateFile},
	{[]string{"os"}, "", []string{"Remove", "RemoveAll", "Rename"}, RemoveFile},
	{sys, "", []string{"Unlink"}, RemoveFile},
	{sys, "", []string{"Flock", "FcntlFlock"}, LockFile},
	{[]string{"fmt"}, "", []string{"Fprint", "Fprintf", "Fprintln"}, WriteFile},
	{[]string{"os", "io/ioutil"}, "", []string{"WriteFile"}, WriteFile},
	{[]string{"io"}, "", []string{"WriteString"}, WriteFile},
	{[]string{"os/exec"}, "", []string{"Command", "CommandContext"}, Command},
	{[]string{"os"}, "", []string{"StartProcess"}, StartProcess},
	{sys, "", []string{"ForkExec"}, StartProcess},
	{[]string{"os", Syscall, Unix}, "", []string{"Getpid"}, Getpid},
	{[]string{"os"}, "", []string{"Exit"}, Exit},
	{[]string{"log"}, "", []string{"Fatal", "Fatalf", "Fatalln"}, Fatal},
	{gopsutil, "Process", []string{"Kill", "KillWithContext", "Terminate", "TerminateWithContext", "SendSignal", "SendSignalWithContext"}, ThirdPartySignal},
	{gopsutil, "Process", []string{"Name", "NameWithContext", "Exe", "ExeWithContext", "Cmdline", "CmdlineWithContext",
		"CmdlineSlice", "CmdlineSliceWithContext", "CreateTime", "CreateTimeWithContext"}, ThirdPartyIdentity},
}

// safeprobeTable lists safeprobe's API by receiver type and name; a
// receiver of "*" stands for any other, and for none.
var safeprobeTable = []struct {
	recv  string
	names []string
	role  Role
}{
	{"*", []string{"Lookup", "Self", "SignalOwner", "SignalOwnerWith", "Same"}, SafeVerify},
	{"Identity", []string{"Probe"}, SafeVerify},
	{"*", []string{"Acquire", "TryAcquire", "NewLockDir"}, SafeLock},
	{"*", []string{"Alive"}, SafeAlive},
	{"*", []string{"Check"}, SafeCheck},
	{"*", []string{"CheckProcess", "Probe"}, SafeProbe},
	{"*", []string{"Inspect"}, SafeInspect},
	{"*", []string{"ParsePID"}, SafeParsePID},
	{"*", []string{"ValidatePID"}, SafeValidatePID},
}

type funcKey struct{ path, recv, name string }

var (
	known        = indexTable()
	safeprobeAPI = indexSafeprobe()
	roleNames    = namesByRole()
)

func indexTable() map[funcKey]Role {
	m := make(map[funcKey]Role)
	for _, e := range table {
		for _, p := range e.pkgs {
			for _, n := range e.names {
				m[funcKey{p, e.recv, n}] |= e.role
			}
		}
	}
	return m
}

func indexSafeprobe() map[funcKey]Role {
	m := make(map[funcKey]Role)
	for _, e := range safeprobeTable {
		for _, n := range e.names {
			m[funcKey{"", e.recv, n}] |= e.role
		}
	}
	return m
}

// namesByRole maps each name in the tables to the roles a function of
// that name may have: what a call's name alone can tell.
func namesByRole() map[string]Role {
	m := map[string]Role{"Error": ErrorText}
	for _, e := range table {
		for _, n := range e.names {
			m[n] |= e.role
		}
	}
	for _, e := range safeprobeTable {
		for _, n := range e.names {
			m[n] |= e.role | Safeprobe
		}
	}
	return m
}

// RolesOf returns the roles of fn; safeprobe is the import path of the
// safeprobe package the analyzer is configured with.
func RolesOf(fn *types.Func, safeprobe string) Role {
	if fn == nil {
		return 0
	}
	if fn.Pkg() == nil {
		if IsErrorMethod(fn) {
			return ErrorText
		}
		return 0
	}
	recv := RecvTypeName(fn)
	if IsSafeprobe(fn.Pkg(), safeprobe) {
		r, ok := safeprobeAPI[funcKey{"", recv, fn.Name()}]
		if !ok {
			r = safeprobeAPI[funcKey{"", "*", fn.Name()}]
		}
		return r | Safeprobe
	}
	return known[funcKey{fn.Pkg().Path(), recv, fn.Name()}]
}
