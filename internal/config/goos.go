package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ParseGOOS parses -goos: a comma-separated list of GOOS values, or
// "host". The host's GOOS comes first when listed: its build covers every
// package, the others only what differs.
func ParseGOOS(s, host string) ([]string, error) {
	var list []string
	for g := range strings.SplitSeq(s, ",") {
		g = strings.TrimSpace(g)
		switch {
		case g == "":
			continue
		case g == "host":
			g = host
		case !knownGOOS[g]:
			return nil, fmt.Errorf("unknown GOOS %q", g)
		}
		if !slices.Contains(list, g) {
			list = append(list, g)
		}
	}
	if len(list) == 0 {
		return nil, errors.New("no GOOS given")
	}
	if i := slices.Index(list, host); i > 0 {
		list = append(append([]string{host}, list[:i]...), list[i+1:]...)
	}
	return list, nil
}

// knownGOOS are the values of GOOS the go command accepts.
var knownGOOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "netbsd": true,
	"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
}
