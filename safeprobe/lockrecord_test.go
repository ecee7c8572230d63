package safeprobe

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// corruptRecords are lock file contents that must never yield a PID, with
// a word of the reason parseRecord gives.
var corruptRecords = []struct {
	name, content, reason string
}{
	{"empty", "", "empty"},
	{"newline only", "\n", "no PID"},
	{"zero", "0\n", "invalid pid"},
	{"minus one", "-1\n", "not a decimal PID"},
	{"process group", "-1234", "not a decimal PID"},
	{"too large", "99999999999\n", "invalid pid"},
	{"int32 wrap to 1", "4294967297\n", "invalid pid"},
	{"above MaxInt32", "2147483648", "invalid pid"},
	{"plus sign", "+1234\n", "not a decimal PID"},
	{"garbage", "garbage\n", "not a decimal PID"},
	{"hex", "0x10\n", "not a decimal PID"},
	{"NUL bytes", "12\x0034\n", "NUL"},
	{"zero-filled after power loss", "\x00\x00\x00\x00\x00\x00\x00\x00", "NUL"},
	{"truncated JSON", "1234\n{\"v\":1,\"pid\":1234,\"sta", "JSON line"},
	{"pid disagrees", "1234\n{\"v\":1,\"pid\":4321}\n", "disagrees"},
	{"JSON without version", "1234\n{\"pid\":1234}\n", "version 0"},
	{"JSON pid float", "1234\n{\"v\":1,\"pid\":1234.5}\n", "JSON line"},
	{"second line not JSON", "1234\nmydaemon\n", "not a JSON object"},
	{"data after JSON", "1234\n{\"v\":1,\"pid\":1234}\nmore\n", "after the JSON line"},
	{"boot without start", "1234\n{\"v\":1,\"pid\":1234,\"boot\":\"b\"}\n", "boot without start"},
	{"serial without start", "1234\n{\"v\":1,\"pid\":1234,\"serial\":77}\n", "serial or pidns without start"},
	{"pidns without start", "1234\n{\"v\":1,\"pid\":1234,\"boot\":\"b\",\"pidns\":9}\n", "without start"},
	{"negative serial", "1234\n{\"v\":1,\"pid\":1234,\"start\":1,\"serial\":-1}\n", "JSON line"},
	{"bad acquired", "1234\n{\"v\":1,\"pid\":1234,\"acquired\":\"yesterday\"}\n", "acquired"},
	{"oversized", "1234\n" + strings.Repeat(" ", maxRecordSize), "larger than"},
}

func TestParseRecordRejectsCorruptRecords(t *testing.T) {
	for _, c := range corruptRecords {
		r, err := parseRecord([]byte(c.content))
		if err == nil {
			t.Errorf("%s: parseRecord(%q) = %+v, want an error", c.name, c.content, r)
			continue
		}
		var re *RecordError
		if !errors.As(err, &re) || !errors.Is(err, ErrCorruptRecord) {
			t.Errorf("%s: error %v is not a *RecordError wrapping ErrCorruptRecord", c.name, err)
		}
		if !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: error %q does not say %q", c.name, err, c.reason)
		}
		if r != (Record{}) {
			t.Errorf("%s: corrupt record yields %+v, want the zero Record", c.name, r)
		}
	}
}

func TestParseRecordAcceptsOldAndCurrentFormats(t *testing.T) {
	acquired := time.Date(2025, 1, 2, 3, 4, 5, 123456789, time.UTC)
	for _, c := range []struct {
		content string
		want    Record
	}{
		{"1234\n", Record{PID: 1234}},
		{"1234", Record{PID: 1234}},
		{"1234\r\n", Record{PID: 1234}},
		{" 1234 \n\n", Record{PID: 1234}},
		{"0042\n", Record{PID: 42}},
		{"2147483647\n", Record{PID: MaxPID}},
		{
			"1234\n{\"v\":1,\"pid\":1234,\"start\":98765,\"boot\":\"b-1\",\"host\":\"h\",\"prog\":\"d\",\"acquired\":\"2025-01-02T03:04:05.123456789Z\"}\n",
			Record{PID: 1234, Version: 1, HasIdentity: true,
				Identity: Identity{PID: 1234, StartTime: 98765, BootID: "b-1"},
				Host:     "h", Program: "d", Acquired: acquired},
		},
		{ // serial and PID namespace, added to version 1 later
			"1234\n{\"v\":1,\"pid\":1234,\"start\":98765,\"boot\":\"b-1\",\"serial\":5120,\"pidns\":4026531836}\n",
			Record{PID: 1234, Version: 1, HasIdentity: true,
				Identity: Identity{PID: 1234, StartTime: 98765, BootID: "b-1", Serial: 5120, PIDNamespace: 4026531836}},
		},
		{ // no final newline, no identity, unknown field of a later version
			"7\n{\"v\":2,\"pid\":7,\"new\":[1,2]}",
			Record{PID: 7, Version: 2},
		},
		{ // start 0 is an identity (PID 1 may start at tick 0)
			"1\n{\"v\":1,\"pid\":1,\"start\":0}\n",
			Record{PID: 1, Version: 1, HasIdentity: true, Identity: Identity{PID: 1}},
		},
	} {
		got, err := parseRecord([]byte(c.content))
		if err != nil {
			t.Errorf("parseRecord(%q): %v", c.content, err)
			continue
		}
		if !recordsEqual(got, c.want) {
			t.Errorf("parseRecord(%q) = %+v, want %+v", c.content, got, c.want)
		}
	}
}

func TestFormatRecordFirstLineIsAPIDFile(t *testing.T) {
	r := Record{PID: 1234, Version: recordVersion, HasIdentity: true,
		Identity: Identity{PID: 1234, StartTime: 5, BootID: "x"}, Host: "h<&>", Program: "p\n\"q\"",
		Acquired: time.Now().UTC()}
	b := formatRecord(r)
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	if string(first) != "1234" {
		t.Errorf("first line %q, want the bare PID", first)
	}
	if bytes.Count(rest, []byte("\n")) != 1 || !bytes.HasSuffix(rest, []byte("\n")) {
		t.Errorf("JSON part %q is not one line ending in a newline", rest)
	}
	got, err := parseRecord(b)
	if err != nil || !recordsEqual(got, r) {
		t.Errorf("parseRecord(formatRecord(r)) = %+v, %v; want %+v", got, err, r)
	}
	if got := formatRecord(Record{PID: 99}); string(got) != "99\n" {
		t.Errorf("formatRecord of a bare record = %q, want %q", got, "99\n")
	}
}

func recordsEqual(a, b Record) bool {
	return a.PID == b.PID && a.Version == b.Version && a.HasIdentity == b.HasIdentity &&
		a.Identity == b.Identity && a.Host == b.Host && a.Program == b.Program &&
		a.Acquired.Equal(b.Acquired)
}

// FuzzParseRecord: parseRecord never panics, a parsed PID always passes
// ValidatePID, a failure yields the zero Record and a *RecordError, and a
// parsed record survives formatRecord and parseRecord unchanged.
func FuzzParseRecord(f *testing.F) {
	for _, c := range corruptRecords {
		f.Add([]byte(c.content))
	}
	f.Add([]byte("1234\n"))
	f.Add(formatRecord(Record{PID: 1234, Version: 1, HasIdentity: true,
		Identity: Identity{PID: 1234, StartTime: 1, BootID: "b"}, Acquired: time.Now().UTC()}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseRecord(b)
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) || !errors.Is(err, ErrCorruptRecord) {
				t.Fatalf("parseRecord(%q) error %v is not a *RecordError", b, err)
			}
			if r != (Record{}) {
				t.Fatalf("parseRecord(%q) failed but yields %+v", b, r)
			}
			return
		}
		if err := ValidatePID(r.PID); err != nil {
			t.Fatalf("parseRecord(%q) yields PID %d: %v", b, r.PID, err)
		}
		if r.HasIdentity && r.Identity.PID != r.PID {
			t.Fatalf("parseRecord(%q): identity PID %d, record PID %d", b, r.Identity.PID, r.PID)
		}
		out := formatRecord(r)
		r2, err := parseRecord(out)
		if err != nil {
			t.Fatalf("parseRecord(formatRecord(parseRecord(%q))) = %v (formatted %q)", b, err, out)
		}
		if !recordsEqual(r, r2) {
			t.Fatalf("round trip of %q: %+v became %+v", b, r, r2)
		}
		if out2 := formatRecord(r2); !bytes.Equal(out, out2) {
			t.Fatalf("formatRecord not stable: %q then %q", out, out2)
		}
	})
}

// TestRecordFitsWhateverTheNames: a program or host name of any length,
// even of bytes JSON spells with six ("<" is "\u003c") or invalid UTF-8,
// is cut so that the record, and a takeover marker, fit what readers read
// and still parse.
func TestRecordFitsWhateverTheNames(t *testing.T) {
	for _, name := range []string{
		strings.Repeat("p", 5000),
		strings.Repeat("<", 5000),
		strings.Repeat("\x01", 5000),
		strings.Repeat("\xff", 5000),
		strings.Repeat("é", 2500), // cut between the two bytes of a rune: not kept
	} {
		rec, err := newRecord(name)
		if err != nil {
			t.Fatal(err)
		}
		rec.Host = recordedName(name)
		b := formatRecord(rec)
		if len(b) > maxRecordSize {
			t.Errorf("record with a %d-byte name %.10q...: %d bytes, over %d", len(name), name, len(b), maxRecordSize)
			continue
		}
		got, err := parseRecord(b)
		if err != nil || len(rec.Program) > maxRecordedName || !utf8.ValidString(rec.Program) && utf8.ValidString(name) {
			t.Errorf("record with a %d-byte name %.10q...: %v; program %d bytes", len(name), name, err, len(rec.Program))
		}
		if utf8.ValidString(name) && got.Program != rec.Program {
			t.Errorf("program name read back as %.10q..., written %.10q...", got.Program, rec.Program)
		}
	}
}

// TestFormatOwnRecordIsFormatRecord: the record TryAcquire writes, from
// JSON kept between locks, is what formatRecord makes of it, as the
// program, identity and time change.
func TestFormatOwnRecordIsFormatRecord(t *testing.T) {
	rec, err := newRecord("prog")
	if err != nil {
		t.Fatal(err)
	}
	noID := Record{PID: rec.PID, Version: recordVersion, NoIdentity: "none here", Host: "h", Program: "p"}
	for i, r := range []Record{rec, rec, noID, rec, {PID: rec.PID}} {
		r.Acquired = time.Date(2026, 1, 2, 3, 4, 5, i*1000, time.UTC) // i = 0: no fraction
		if i == 1 {
			r.Program = "other"
		}
		if got, want := formatOwnRecord(r), formatRecord(r); !bytes.Equal(got, want) {
			t.Errorf("record %d: formatOwnRecord = %q, formatRecord = %q", i, got, want)
		}
	}
}
