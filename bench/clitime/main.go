// Command clitime times commands side by side: each run of each command
// in turn, N rounds, so that a change in the machine's load falls on all
// of them alike. A run's time is from fork to reaped exit, as a shell
// script pays it; its CPU time (user and system, from the kernel's
// accounting) is what a loaded machine's waits do not add to. It prints,
// per command, its label, the median and the 90th percentile of the time
// and the median CPU time, in microseconds, and its last run's exit code.
//
// Usage: clitime -n 200 'label=cmd arg...' ...
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 200, "rounds")
	flag.Parse()
	type command struct {
		label string
		argv  []string
		times []time.Duration
		cpu   []time.Duration
		exit  int
	}
	var cmds []*command
	for _, spec := range flag.Args() {
		label, line, ok := strings.Cut(spec, "=")
		if !ok || strings.TrimSpace(line) == "" {
			fmt.Fprintf(os.Stderr, "clitime: %q: want label=command\n", spec)
			os.Exit(2)
		}
		cmds = append(cmds, &command{label: label, argv: strings.Fields(line)})
	}
	for i := 0; i < *n; i++ {
		for _, c := range cmds {
			cmd := exec.Command(c.argv[0], c.argv[1:]...)
			start := time.Now()
			err := cmd.Run()
			c.times = append(c.times, time.Since(start))
			if cmd.ProcessState != nil {
				c.cpu = append(c.cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
			}
			c.exit = 0
			var exit *exec.ExitError
			switch {
			case errors.As(err, &exit):
				c.exit = exit.ExitCode()
			case err != nil:
				fmt.Fprintf(os.Stderr, "clitime: %s: %v\n", c.label, err)
				os.Exit(1)
			}
		}
	}
	for _, c := range cmds {
		fmt.Printf("%s %.0f %.0f %.0f %d\n", c.label, quantile(c.times, 0.5), quantile(c.times, 0.9), quantile(c.cpu, 0.5), c.exit)
	}
}

// quantile is the q quantile of ds, in microseconds.
func quantile(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return float64(ds[int(q*float64(len(ds)-1))].Microseconds())
}
