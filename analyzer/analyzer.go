package analyzer

import (
	_ "embed"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/pidlint/pidlint/analyzer/internal/facts"
	"github.com/pidlint/pidlint/analyzer/internal/goos"
)

//go:embed doc.go
var doc string

// DefaultSafeprobePath is the import path suggested fixes use unless the
// -safeprobe flag names another (a vendored or forked copy).
const DefaultSafeprobePath = "github.com/pidlint/pidlint/safeprobe"

// DebugCategory is the category of the diagnostics -flow-debug adds:
// what the value flow skipped and why, not findings.
const DebugCategory = "flow-debug"

// Analyzer is pidlint with its defaults; its flags are -strict, -safeprobe
// and -disable.
var Analyzer = New()

// Config is what a driver may set besides the analyzer's flags.
type Config struct {
	Strict        bool     // also report raw probes that are correct where they stand
	SafeprobePath string   // import path for suggested fixes
	Disable       []string // rules not to report, by ID or name
	// Cache, if set, is shared by every pass of the analyzer: a driver
	// that runs it over many packages in one process passes one, so that
	// what the analyzer reads of GOROOT is read once per run.
	Cache *Cache
}

// A Cache holds what the analyzer reads of GOROOT's sources (which
// standard packages build for another GOOS, what syscall declares
// there), for the passes of one run. It is safe for concurrent use. The
// analyzer keeps no state across packages of its own: without a Cache,
// each pass reads what it needs.
type Cache struct{ std goos.Std }

// NewCache returns an empty Cache.
func NewCache() *Cache { return new(Cache) }

// New returns a pidlint analyzer with its own flags, defaulting to cfg.
// Drivers that configure the analyzer in code (the golangci-lint plugin)
// call New instead of mutating Analyzer's flags. New panics if
// cfg.Disable names an unknown rule: check user input with ParseRules.
func New(cfg ...Config) *analysis.Analyzer {
	c := &config{safeprobe: DefaultSafeprobePath}
	if len(cfg) > 0 {
		c.strict = cfg[0].Strict
		if cfg[0].SafeprobePath != "" {
			c.safeprobe = cfg[0].SafeprobePath
		}
		c.cache = cfg[0].Cache
		if err := c.disable.Set(strings.Join(cfg[0].Disable, ",")); err != nil {
			panic("analyzer.New: Config.Disable: " + err.Error())
		}
	}
	a := &analysis.Analyzer{
		Name:      "pidlint",
		Doc:       extractDoc(doc),
		URL:       "https://pkg.go.dev/github.com/pidlint/pidlint/analyzer",
		Requires:  []*analysis.Analyzer{inspect.Analyzer},
		FactTypes: facts.Types(),
		Run:       c.run,
	}
	a.Flags.BoolVar(&c.strict, "strict", c.strict,
		"also report raw probes that are correct where they stand (category raw-probe): for code that routes every probe through safeprobe")
	a.Flags.StringVar(&c.safeprobe, "safeprobe", c.safeprobe,
		"import path of the safeprobe package that suggested fixes call")
	a.Flags.Var(&c.disable, "disable", "comma-separated rules not to report, by ID or name, e.g. PL004,shell-probe")
	a.Flags.BoolVar(&c.debug, "flow-debug", false, "print on standard error what the PID value flow skips and why (a function too large, a package the SSA builder cannot take)")
	return a
}

// config holds one analyzer's flag values. run only reads it.
type config struct {
	strict    bool
	safeprobe string
	disable   ruleList
	debug     bool
	cache     *Cache // nil: each pass its own
}

// ruleList is a flag.Value of comma-separated rule IDs or names; it holds
// their IDs.
type ruleList []string

func (l *ruleList) String() string { return strings.Join(*l, ",") }

func (l *ruleList) Set(s string) error {
	ids, err := ParseRules(s)
	if err != nil {
		return err
	}
	*l = ids
	return nil
}

// extractDoc returns the "# Analyzer pidlint" section of the package doc.
func extractDoc(src string) string {
	_, after, ok := strings.Cut(src, "// # Analyzer pidlint\n")
	if !ok {
		panic("doc.go: no # Analyzer pidlint section")
	}
	var lines []string
	for line := range strings.SplitSeq(after, "\n") {
		if !strings.HasPrefix(line, "//") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(line, "//"), " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
