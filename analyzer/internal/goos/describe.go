package goos

import "strings"

// Ports are the GOOS values Go has a port for ("go tool dist list"). Known
// holds more: names go/build reserves in file names (hurd, nacl, zos),
// which messages do not mention.
var Ports = Of("aix", "android", "darwin", "dragonfly", "freebsd", "illumos", "ios",
	"js", "linux", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows")

// Describe names an OS set for a sentence that reads "… on <Describe(s)>":
// "any OS but windows", "every Unix and js", "darwin and linux". "any OS
// but" reads right after a negation too ("never fails on any OS but
// windows"). Only ports are named, and a variant not apart from its OS
// (android with linux) not at all.
func Describe(s Set) string {
	s = collapse(s & Ports)
	all := collapse(Ports)
	unix := collapse(Unix & Ports)
	switch rest := all &^ s; {
	case s == 0:
		return "no OS"
	case rest == 0:
		return "every OS"
	case rest.Len() <= 2:
		return "any OS but " + list(rest.names())
	case s&unix == unix:
		return list(append([]string{"every Unix"}, (s &^ unix).names()...))
	}
	return list(s.names())
}

// collapse drops the variants of an OS named with it (android with linux):
// they add nothing to a message.
func collapse(s Set) Set {
	for _, v := range [][2]string{{"linux", "android"}, {"darwin", "ios"}, {"solaris", "illumos"}} {
		if s.Has(Of(v[0])) {
			s &^= Of(v[1])
		}
	}
	return s
}

// list is "a", "a and b" or "a, b and c".
func list(names []string) string {
	if n := len(names); n > 1 {
		return strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return names[0]
}
