// Command peakrss runs a command and prints the peak of the resident
// memory of its whole process tree, summed over the processes alive at
// each moment (sampled every 10 ms from /proc), in MiB, on standard error
// as "peakrss: N MiB". go vet runs one tool process per package, many at a
// time: the largest single process (what /usr/bin/time reports) would
// understate it. The command's exit status is passed on. Linux only.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peakrss command [args...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// Its own process group: every descendant is found by its group ID.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(2)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	pgid := cmd.Process.Pid
	var peak int64
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			fmt.Fprintf(os.Stderr, "peakrss: %d MiB\n", peak>>20)
			if exit, ok := err.(*exec.ExitError); ok {
				os.Exit(exit.ExitCode())
			} else if err != nil {
				os.Exit(2)
			}
			os.Exit(0)
		case <-tick.C:
			peak = max(peak, groupRSS(pgid))
		}
	}
}

// groupRSS sums the resident memory of the processes in group pgid.
func groupRSS(pgid int) int64 {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var sum int64
	for _, name := range stats {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		// Fields after the command name, which ends at the last ')':
		// state ppid pgrp session tty tpgid flags minflt cminflt majflt
		// cmajflt utime stime cutime cstime priority nice threads
		// itrealvalue starttime vsize rss.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(data[i+1:])
		if len(f) < 22 {
			continue
		}
		if g, _ := strconv.Atoi(string(f[2])); g != pgid {
			continue
		}
		pages, _ := strconv.ParseInt(string(f[21]), 10, 64)
		sum += pages * int64(os.Getpagesize())
	}
	return sum
}
