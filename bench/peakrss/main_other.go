//go:build !linux

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "peakrss: reads /proc; Linux only")
	os.Exit(2)
}
