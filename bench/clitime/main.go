// Command clitime times commands side by side: each run of each command
// in turn, N rounds, so that a change in the machine's load falls on all
// of them alike. A run's time is from fork to reaped exit, as a shell
// script pays it. It prints, per command, its label, the median and the
// 90th percentile in microseconds, and the exit code of its last run.
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
		slices.Sort(c.times)
		us := func(q float64) float64 { return float64(c.times[int(q*float64(len(c.times)-1))].Microseconds()) }
		fmt.Printf("%s %.0f %.0f %d\n", c.label, us(0.5), us(0.9), c.exit)
	}
}
