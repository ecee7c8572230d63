#!/usr/bin/env bash
# Measures safeprobe's probe and lock against the raw system calls and peer
# libraries, and counts the system calls of one TryAcquire+Release and of
# gofrs/flock's TryLock+Unlock (strace -c): the safeprobe part of make
# bench, printed as markdown. Alone: bash bench/safeprobe.sh.
#
# RUNS (default 5) runs per timing; the lock's are alternating runs, one
# binary start per implementation and run. BENCHTIME (default 10000x)
# rounds per run, CONTENDED_ROUNDS (800) for the contended case,
# SYSCALL_ROUNDS (1000) for the count. strace is installed with apt-get
# where missing (tools/apt/need.sh).
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bash "$bench/../tools/apt/need.sh" -required strace strace

(cd "$bench" && go test -c -o "$work/bench.test" .)
out=$work/bench.txt
: >"$out"

echo "probe benchmarks (-count $runs)" >&2
"$work/bench.test" -test.run=NONE -test.bench='^Benchmark(Kill|FindProcessSignal|GopsutilPidExists|Alive|Probe|IdentityProbe)$' \
	-test.benchtime="${BENCHTIME:-10000x}" -test.count="$runs" >>"$out" 2>&1 || { cat "$out" >&2; exit 1; }

echo "lock benchmarks ($runs alternating runs)" >&2
locks=(safeprobe safeprobe-nosync safeprobe-lockdir gofrs-flock nightlyone-lockfile)
for _ in $(seq "$runs"); do
	for impl in "${locks[@]}"; do
		"$work/bench.test" -test.run=NONE -test.bench="^BenchmarkLock\$/^uncontended\$/^$impl\$" \
			-test.benchtime="${BENCHTIME:-10000x}" -test.count=1 >>"$out" 2>&1 || { cat "$out" >&2; exit 1; }
	done
done
"$work/bench.test" -test.run=NONE -test.bench='^BenchmarkLockContended$' \
	-test.benchtime="${CONTENDED_ROUNDS:-800}x" -test.count=1 >>"$out" 2>&1 || { cat "$out" >&2; exit 1; }

# The Go runtime's own system calls (scheduling, signals, memory, start-up),
# which no lock makes, are left out of the count; epoll_ctl is not: Go's
# os package asks it for each file it opens (gofrs/flock's).
runtime_calls='futex,nanosleep,epoll_pwait,epoll_create1,eventfd2,sched_yield,tgkill,getpid,gettid,rt_sigreturn,rt_sigprocmask,rt_sigaction,sigaltstack,mmap,munmap,madvise,mprotect,brk,clone,clone3,set_robust_list,rseq,getrandom,prlimit64,sched_getaffinity,execve,arch_prctl,set_tid_address,exit_group'
rounds=${SYSCALL_ROUNDS:-1000}

# straced IMPL N FILE: strace -c of N rounds of IMPL's lock and unlock, on a
# lock file of its own on a tmpfs (as BenchmarkLock's).
straced() {
	local dir
	dir=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d -p "$work")
	BENCH_SYSCALLS="$1,$dir/x.lock,$2" strace -f -c -o "$3" -e "trace=!$runtime_calls" "$work/bench.test"
	rm -rf "$dir"
}

# syscalls IMPL: "N (name n, ...)": the system calls of one round, from
# SYSCALL_ROUNDS rounds less a run of none (the binary's own start).
syscalls() {
	straced "$1" 0 "$work/$1.0"
	straced "$1" "$rounds" "$work/$1.n"
	awk -v n="$rounds" '
		function calls(line,   f) { split(line, f); return f[4] }
		FNR == 1 { file++ }
		/^-/ || /% time/ || $NF == "total" { next }
		file == 1 { base[$NF] = calls($0) }
		file == 2 { per[$NF] = (calls($0) - base[$NF]) / n }
		END {
			total = 0; list = ""
			for (s in per) if (per[s] >= 0.5) { total += per[s]; names[++k] = s }
			# by count, then name
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
				if (per[names[j]] > per[names[i]] || per[names[j]] == per[names[i]] && names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
			for (i = 1; i <= k; i++) list = list (i > 1 ? ", " : "") sprintf("%s %.0f", names[i], per[names[i]])
			printf "%.0f (%s)\n", total, list
		}' "$work/$1.0" "$work/$1.n"
}
echo "system calls per round (strace -c, $rounds rounds)" >&2
sp_calls=$(syscalls safeprobe)
sd_calls=$(syscalls safeprobe-lockdir)
fl_calls=$(syscalls gofrs-flock)

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }
# med NAME: the median ns/op of benchmark NAME.
med() {
	awk -v n="Benchmark$1-" 'index($1, n) == 1 && length($1) <= length(n) + 3 {print $3}' "$out" | median
}
us() { echo "scale=2; $1 / 1000" | bc; }
ratio() { echo "scale=2; $1 / $2" | bc; }

cat <<MD

### Probe (median ns/op of $runs runs; ratio to syscall.Kill(pid, 0))

| case | kill(pid,0) | FindProcess+Signal(0) | gopsutil PidExists | safeprobe.Alive | safeprobe.Probe | Identity.Probe | Alive / kill | Alive / gopsutil |
|---|---|---|---|---|---|---|---|---|
MD
for c in live gone otheruser; do
	k=$(med "Kill/$c") f=$(med "FindProcessSignal/$c") g=$(med "GopsutilPidExists/$c")
	a=$(med "Alive/$c") p=$(med "Probe/$c") i=$(med "IdentityProbe/$c")
	echo "| $c | $(us "$k") µs | $(us "$f") µs | $(us "$g") µs | $(us "$a") µs | $(us "$p") µs | $(us "$i") µs | $(ratio "$a" "$k") | $(ratio "$a" "$g") |"
done
s=$(med "Lock/uncontended/safeprobe") n=$(med "Lock/uncontended/safeprobe-nosync") d=$(med "Lock/uncontended/safeprobe-lockdir")
f=$(med "Lock/uncontended/gofrs-flock") l=$(med "Lock/uncontended/nightlyone-lockfile")
cat <<MD

### Lock (median ns/op of $runs alternating runs; tmpfs; ratio to gofrs/flock)

| case | safeprobe | safeprobe, no fsync | safeprobe LockDir, no fsync | gofrs/flock | nightlyone/lockfile | safeprobe / flock |
|---|---|---|---|---|---|---|
| TryAcquire+Release | $(us "$s") µs | $(us "$n") µs | $(us "$d") µs | $(us "$f") µs | $(us "$l") µs | $(ratio "$n" "$f") (no fsync), $(ratio "$s" "$f") (fsync), $(ratio "$d" "$f") (LockDir) |

System calls per TryAcquire+Release (no fsync; strace -c over $rounds rounds, the Go runtime's own left out):

- safeprobe: ${sp_calls}
- safeprobe LockDir (the directories above walked once, by NewLockDir): ${sd_calls}
- gofrs/flock TryLock+Unlock: ${fl_calls}

MD
# The last line of each: the testing package runs a benchmark once with
# one round before its real run.
for impl in safeprobe gofrs-flock; do
	grep -o "contended $impl: [0-9]* processes × [0-9][0-9]* rounds.*" "$out" | tail -1 | sed 's/^/- /' || true
done
