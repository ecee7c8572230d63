package config

import (
	"slices"
	"testing"
)

func TestParseGOOS(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{DefaultGOOS, []string{"linux", "darwin", "windows", "freebsd"}},
		{"windows,linux", []string{"linux", "windows"}},
		{"host", []string{"linux"}},
		{"darwin", []string{"darwin"}},
		{"host,linux,darwin", []string{"linux", "darwin"}},
	} {
		got, err := ParseGOOS(tc.in, "linux")
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseGOOS(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "beos", "linux,,mac"} {
		if _, err := ParseGOOS(bad, "linux"); err == nil {
			t.Errorf("ParseGOOS(%q): no error", bad)
		}
	}
}
