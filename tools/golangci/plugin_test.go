package golangci

import (
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/pidlint/pidlint/analyzer"
)

// settings builds what golangci-lint passes to New: the YAML settings as
// generic maps and slices.
func settings(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("pidlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatalf("nil settings: %v", err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Name != "pidlint" {
		t.Fatalf("BuildAnalyzers() = %v, want one analyzer named pidlint", as)
	}
	if as[0] == analyzer.Analyzer {
		t.Error("BuildAnalyzers returned the shared analyzer.Analyzer; want one built with New")
	}
}

func TestSettings(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		want     analyzer.Config
	}{
		{"nil", nil, analyzer.Config{}},
		{"empty", settings(), analyzer.Config{}},
		{"strict", settings("strict", true), analyzer.Config{Strict: true}},
		{"safeprobe", settings("safeprobe", "example.com/vendor/safeprobe"),
			analyzer.Config{SafeprobePath: "example.com/vendor/safeprobe"}},
		{"disable IDs and names", settings("disable", []any{"PL003", "pl004", "shell-probe"}),
			analyzer.Config{Disable: []string{"PL003", "PL004", "PL005"}}},
		{"all", settings("strict", true, "safeprobe", "x/safeprobe", "disable", []any{"PL006"}),
			analyzer.Config{Strict: true, SafeprobePath: "x/safeprobe", Disable: []string{"PL006"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.settings)
			if err != nil {
				t.Fatalf("New(%v): %v", tt.settings, err)
			}
			got := p.(*Plugin).cfg
			if got.Strict != tt.want.Strict || got.SafeprobePath != tt.want.SafeprobePath ||
				!slices.Equal(got.Disable, tt.want.Disable) {
				t.Errorf("New(%v) config = %+v, want %+v", tt.settings, got, tt.want)
			}
		})
	}
}

func TestSettingsErrors(t *testing.T) {
	tests := []struct {
		name     string
		settings any
		want     []string // substrings of the error
	}{
		{"unknown rule", settings("disable", []any{"PL003", "PL999"}), []string{"unknown rule", `"PL999"`}},
		{"unknown setting", settings("strikt", true), []string{"strikt"}},
		{"wrong type", settings("strict", "yes"), []string{"strict"}},
		{"disable not a list", settings("disable", "PL003"), []string{"disable"}},
		{"not a map", []any{"strict"}, []string{"decoding settings"}},
		{"goos", settings("goos", []any{"linux"}), []string{"goos", "GOOS"}},
		{"exclude", settings("exclude", []any{"gen"}), []string{"exclude", "linters.exclusions.paths"}},
		{"languages", settings("languages", []any{"go"}), []string{"languages", "Go rules only"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.settings)
			if err == nil {
				t.Fatalf("New(%v) = %+v, want an error", tt.settings, p)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("New(%v) error %q does not contain %q", tt.settings, err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "pidlint: ") {
				t.Errorf("error %q does not name the linter", err)
			}
		})
	}
}

// The analyzer a configured plugin builds reads its settings as flag
// defaults, so golangci-lint's settings and pidlint's flags agree.
func TestAnalyzerFlags(t *testing.T) {
	p, err := New(settings("strict", true, "safeprobe", "x/safeprobe", "disable", []any{"PL004", "PL005"}))
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	for name, want := range map[string]string{"strict": "true", "safeprobe": "x/safeprobe", "disable": "PL004,PL005"} {
		f := as[0].Flags.Lookup(name)
		if f == nil {
			t.Errorf("analyzer has no -%s flag", name)
			continue
		}
		if got := f.Value.String(); got != want {
			t.Errorf("-%s = %q, want %q", name, got, want)
		}
	}
}

// TestEveryRule checks that the disable setting takes every rule of the
// registry, by ID and by name, as pidlint's -disable flag does.
func TestEveryRule(t *testing.T) {
	for _, r := range analyzer.Rules {
		for _, name := range []string{r.ID, r.Name} {
			p, err := New(settings("disable", []any{name}))
			if err != nil {
				t.Errorf("disable: [%s]: %v", name, err)
				continue
			}
			if got := p.(*Plugin).cfg.Disable; !slices.Equal(got, []string{r.ID}) {
				t.Errorf("disable: [%s] = %q, want [%s]", name, got, r.ID)
			}
		}
	}
}
