package pidflow

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"
)

// A summary is what a function of the package does with PIDs, for its
// callers: the labels that leave it through results and through what its
// parameters point to, the parameters that reach a real signal, what it
// checks of its parameters' PIDs, the files it locks, and the flags PL008
// reads. Parameters count the receiver first.
type summary struct {
	results map[int][]placed // labels leaving through result N, below it
	params  map[int][]placed // labels written below what parameter N points to
	outSeen map[outKey]bool  // what results and params hold, for out
	signals []paramSignal
	checks  []paramCheck
	locks   []string // keys of the files it takes a kernel lock on
	flags   flags
	probes  []token.Pos // its blind probes of stored PIDs (PL008)
}

// A paramSignal is a parameter whose PID reaches a real signal.
type paramSignal struct {
	param    int
	path     string
	sigParam int       // the parameter that is the signal; -1: always a real one
	site     *sinkSite // the signal
	sigText  string    // the signal a call on the way fixed, as written there
}

// A paramCheck is what a function checks of a parameter's PID.
type paramCheck struct {
	param   int
	path    string
	checks  check
	checked bool
	bounded bool
	wide    token.Pos
	// wideElsewhere: another package's function parses it wider than
	// 32 bits; the call is where.
	wideElsewhere bool
}

// flags say what a function, or a function of the package it calls,
// does to processes and files.
type flags uint16

const (
	fLocks      flags = 1 << iota // takes a kernel file lock
	fRemoves                      // removes or renames a file
	fBlindProbe                   // asks whether a stored PID is alive, not whose it is
	fOwnPID                       // writes its own PID
	fSignals                      // sends a real signal
	fStarts                       // starts a process itself
	fVerifies                     // checks a process's identity
)

func newSummary() *summary {
	return &summary{results: map[int][]placed{}, params: map[int][]placed{}, outSeen: map[outKey]bool{}}
}

// An outKey is one label leaving a function, where it leaves.
type outKey struct {
	result, param int
	pl            placed
}

// out adds a label leaving through result (or, when result is -1,
// below parameter param) at rel.
func (s *summary) out(result, param int, rel string, l label) {
	m, k := s.results, result
	if result < 0 {
		m, k = s.params, param
	}
	pl := placed{rel, l}
	if key := (outKey{result, param, pl}); !s.outSeen[key] {
		s.outSeen[key] = true
		m[k] = append(m[k], pl)
	}
}

func (s *summary) signal(ps paramSignal) {
	if !slices.Contains(s.signals, ps) {
		s.signals = append(s.signals, ps)
	}
}

// check merges what is checked of a parameter's PID at path.
func (s *summary) check(param int, path string, c paramCheck) {
	for i := range s.checks {
		p := &s.checks[i]
		if p.param == param && p.path == path {
			p.checks |= c.checks
			p.checked = p.checked || c.checked
			p.bounded = p.bounded || c.bounded
			if !p.wide.IsValid() {
				p.wide = c.wide
			}
			p.wideElsewhere = p.wideElsewhere || c.wideElsewhere
			return
		}
	}
	c.param, c.path = param, path
	s.checks = append(s.checks, c)
}

func (s *summary) lock(key string) {
	if !slices.Contains(s.locks, key) {
		s.locks = append(s.locks, key)
	}
}

func (s *summary) probe(pos token.Pos) {
	if pos.IsValid() && !slices.Contains(s.probes, pos) {
		s.probes = append(s.probes, pos)
	}
}

// key is a text that two equal summaries share, to tell when a round of
// the package's summaries changed nothing.
func (s *summary) key() string {
	var parts []string
	for k, pls := range s.results {
		for _, pl := range pls {
			parts = append(parts, fmt.Sprintf("r%d%s%v", k, pl.rel, pl.l))
		}
	}
	for k, pls := range s.params {
		for _, pl := range pls {
			parts = append(parts, fmt.Sprintf("p%d%s%v", k, pl.rel, pl.l))
		}
	}
	for _, ps := range s.signals {
		parts = append(parts, fmt.Sprintf("s%v", ps))
	}
	for _, c := range s.checks {
		parts = append(parts, fmt.Sprintf("c%v", c))
	}
	for _, l := range s.locks {
		parts = append(parts, "l"+l)
	}
	for _, p := range s.probes {
		parts = append(parts, fmt.Sprintf("b%d", p))
	}
	sort.Strings(parts)
	return fmt.Sprintf("%d|%s", s.flags, strings.Join(parts, "|"))
}

// answers reports whether a result of the function answers whether a
// PID is alive: whether calling it probes one.
func (s *summary) answers() bool {
	for _, pls := range s.results {
		for _, pl := range pls {
			if pl.l.kind == answer {
				return true
			}
		}
	}
	return false
}
