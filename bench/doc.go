// Package bench measures pidlint against what it replaces: the analyzer
// against a no-op analyzer on the same loader, safeprobe's probe against
// kill(pid, 0), os.FindProcess + Signal(0) and gopsutil, and safeprobe's
// lock against github.com/gofrs/flock and github.com/nightlyone/lockfile.
// It is a module of its own so that those peers stay out of pidlint's
// dependencies. run.sh prints the results as one table; make bench runs it.
package bench
