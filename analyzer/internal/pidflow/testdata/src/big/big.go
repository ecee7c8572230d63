// Package big: a function past the flow's bound is skipped, with a line
// that says so; the others are followed.
package big // want `debug: .*big.go:14:6: long not followed: \d+ SSA instructions \(the bound is 20\)`

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// long would be reported, but it is over the bound: nothing in it is
// followed.
func long(path string) {
	data, _ := os.ReadFile(path)
	fields := strings.Fields(string(data))
	total := 0
	for i, f := range fields {
		if strings.HasPrefix(f, "#") || strings.HasSuffix(f, ":") || len(f) > 64 {
			continue
		}
		total += i * len(f)
	}
	if total > 1<<20 || len(fields) == 0 {
		return
	}
	pid, _ := strconv.Atoi(fields[0])
	syscall.Kill(pid, syscall.SIGTERM)
}

func short(path string) {
	data, _ := os.ReadFile(path)
	pid, _ := strconv.Atoi(string(data))
	syscall.Kill(pid, syscall.SIGTERM) // want `signal syscall.Kill read from the file path at big.go:32`
}
