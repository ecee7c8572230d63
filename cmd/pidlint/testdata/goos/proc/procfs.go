package proc

import (
	"os"
	"strconv"
)

// Listed reports whether pid has a /proc entry.
func Listed(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}
