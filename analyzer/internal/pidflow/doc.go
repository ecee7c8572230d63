// Package pidflow follows PIDs through one package on its SSA form: where
// a PID came from (a file, a decoded state file, a database row, the
// environment), where it goes (a real signal, a liveness probe), and what
// checks that it still names the process that wrote it (its start time, a
// name compared, a kernel lock on the same file, a safeprobe Identity).
// PL007 and PL008 ask it; facts carry each function's summary to the
// packages that import it.
//
// The flow is a taint over access paths: a value's labels live at its
// SSA register or, for memory, at the path from a root (an allocation, a
// global, a parameter) through fields (".N"), elements ("[]"), pointers
// ("*", "&") and results ("#N"). It is field-sensitive, follows copies,
// conversions, phi nodes, closures, method values and channels, and is
// summarized per function: which parameters reach a signal, a probe or an
// identity check, which results carry a stored PID, which parameters a
// function fills from storage. A package's functions are summarized
// together until nothing changes; summaries of other packages come as
// facts (facts.FuncFlow).
//
// Rules see only positions: the Signals and Guards it found, each with its
// Source; they map a position back to the syntax tree only to build a fix.
//
// Files: flow.go (the API and the run), build.go (SSA on demand),
// source.go and label.go (what is followed), paths.go and unit.go (where
// labels live), transfer.go (the instructions), callsite.go and known.go
// (calls: summaries, facts, the functions pidlint knows), command.go
// (kill, pkill and taskkill command lines), values.go (constants, paths
// and names read off SSA values), summary.go (summaries and facts),
// guards.go and refuse.go (PL008's guards).
package pidflow
