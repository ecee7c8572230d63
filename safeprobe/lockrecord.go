package safeprobe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// recordVersion is the version of the JSON line formatRecord writes.
const recordVersion = 1

// maxRecordSize bounds how much of a lock file is read. A larger file is not
// a record.
const maxRecordSize = 4096

// maxRecordedName bounds the program and host names a record or takeover
// marker carries, in bytes, so that it always fits maxRecordSize: each byte
// takes at most six in the JSON ("\u003c"), 3,060 for both, with room to
// spare for the rest.
const maxRecordedName = 255

// recordedName is s cut to maxRecordedName bytes, not inside a UTF-8
// sequence: argv[0] may be as long as the arguments' limit.
func recordedName(s string) string {
	if len(s) <= maxRecordedName {
		return s
	}
	n := maxRecordedName
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Record is the owner record of a lock file: what a lock holder writes into
// it while holding the lock:
//
//	1234
//	{"v":1,"pid":1234,"start":98765,"boot":"…","host":"web1","prog":"mydaemon","acquired":"2025-01-02T03:04:05.123456789Z"}
//
// The first line alone is a classic PID file (one decimal PID and a
// newline), so systemd's PIDFile= and shell scripts that read the file keep
// working. The second line is a versioned JSON object naming the holder for
// ever: its start time and boot (see Identity), with the host, program and
// time of acquisition for people reading the file. Readers ignore JSON
// fields they do not know, so later versions can add fields. A holder
// that could read no identity of its own (no process table on its OS)
// writes "noid" with the reason in place of "start".
//
// The PID is the holder's in its own PID namespace, which the JSON line's
// "pidns" names: from another namespace (a container's host) it is another
// process, or none, and Inspect and SignalOwner say so.
//
// A bare "1234\n" or "1234" (what `echo $$ > x.pid` writes) is a valid
// record without an identity: its PID cannot be told apart from a reused
// one.
type Record struct {
	// PID is the holder's process ID. A parsed Record's PID always passes
	// ValidatePID.
	PID int
	// Version is 0 for a bare PID file and the JSON line's "v" otherwise.
	Version int
	// Identity names the holder for ever; valid only if HasIdentity.
	Identity    Identity
	HasIdentity bool
	// NoIdentity says why the holder recorded no identity where it could
	// not read one (no process table on its OS, a /proc it does not
	// appear in): "" for a record with an identity, a bare PID file, and a
	// record written before this field.
	NoIdentity string
	Host       string    // hostname of the holder's machine, if recorded
	Program    string    // the holder's program name, if recorded
	Acquired   time.Time // when the lock was taken; zero if not recorded
}

// ErrCorruptRecord is wrapped by the error for a lock file whose content is
// not an owner record. A corrupt record never yields a PID.
var ErrCorruptRecord = errors.New("corrupt owner record")

// RecordError is the error of parsing a corrupt owner record.
type RecordError struct {
	Reason string
	Err    error // the underlying parse error, if any
}

func (e *RecordError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%v: %s: %v", ErrCorruptRecord, e.Reason, e.Err)
	}
	return fmt.Sprintf("%v: %s", ErrCorruptRecord, e.Reason)
}

func (e *RecordError) Is(target error) bool { return target == ErrCorruptRecord }

func (e *RecordError) Unwrap() error { return e.Err }

// corruptReason is the reason of a parseRecord error, with its cause.
func corruptReason(err error) string {
	var re *RecordError
	if !errors.As(err, &re) {
		return err.Error()
	}
	if re.Err != nil {
		return re.Reason + ": " + re.Err.Error()
	}
	return re.Reason
}

func corrupt(reason string, err error) (Record, error) {
	return Record{}, &RecordError{Reason: reason, Err: err}
}

// processJSON names a process, in an owner record and a takeover marker.
type processJSON struct {
	V     int     `json:"v"`
	PID   int     `json:"pid"`
	Start *uint64 `json:"start,omitempty"`
	Boot  string  `json:"boot,omitempty"`
	// Serial and PIDNS were added later, without a version change: older
	// readers ignore them and compare what they know.
	Serial uint64 `json:"serial,omitempty"`
	PIDNS  uint64 `json:"pidns,omitempty"`
	// NoID, added later too, says why there is no start (Identity).
	NoID string `json:"noid,omitempty"`
	Host string `json:"host,omitempty"`
	Prog string `json:"prog,omitempty"`
}

// setIdentity records id's start time, boot, serial and PID namespace.
func (p *processJSON) setIdentity(id Identity) {
	start := id.StartTime
	p.Start, p.Boot, p.Serial, p.PIDNS = &start, id.BootID, id.Serial, id.PIDNamespace
}

// identity returns the process named, and whether with its start time.
func (p *processJSON) identity() (Identity, bool) {
	if p.Start == nil {
		return Identity{PID: p.PID}, false
	}
	return Identity{PID: p.PID, StartTime: *p.Start, BootID: p.Boot, Serial: p.Serial, PIDNamespace: p.PIDNS}, true
}

// recordJSON is the JSON line of an owner record.
type recordJSON struct {
	processJSON
	Acquired string `json:"acquired,omitempty"`
}

// formatRecord encodes r: the PID line, then for Version >= 1 the JSON line.
func formatRecord(r Record) []byte {
	b := strconv.AppendInt(nil, int64(r.PID), 10)
	b = append(b, '\n')
	if r.Version < 1 {
		return b
	}
	j := recordJSON{processJSON: processJSON{V: r.Version, PID: r.PID, Host: r.Host, Prog: r.Program}}
	if r.HasIdentity {
		j.setIdentity(r.Identity)
	} else {
		j.NoID = recordedName(r.NoIdentity)
	}
	if !r.Acquired.IsZero() {
		j.Acquired = r.Acquired.Format(time.RFC3339Nano)
	}
	line, err := json.Marshal(j)
	if err != nil {
		panic("safeprobe: encoding owner record: " + err.Error()) // plain struct: cannot fail
	}
	b = append(b, line...)
	return append(b, '\n')
}

// formatOwnRecord is formatRecord of a record this process writes as it
// takes a lock: all of it but the time is what the last one was (its PID,
// identity, host and program), so the JSON of the rest is kept, and only
// the time of acquisition appended, the last field formatRecord writes.
func formatOwnRecord(r Record) []byte {
	fixed := r
	fixed.Acquired = time.Time{}
	c := ownRecord.Load()
	if c == nil || c.fixed != fixed {
		b := formatRecord(fixed)
		c = &ownRecordJSON{fixed: fixed, b: b[:len(b)-len("}\n")]}
		ownRecord.Store(c)
	}
	if r.Version < 1 || r.Acquired.IsZero() {
		return formatRecord(r)
	}
	b := append(make([]byte, 0, len(c.b)+64), c.b...)
	b = append(b, `,"acquired":"`...)
	b = r.Acquired.AppendFormat(b, time.RFC3339Nano)
	return append(b, "\"}\n"...)
}

// ownRecord is the JSON formatOwnRecord keeps.
var ownRecord atomic.Pointer[ownRecordJSON]

type ownRecordJSON struct {
	fixed Record // without Acquired
	b     []byte // formatRecord(fixed) without its closing "}\n"
}

// parseRecord decodes an owner record. It returns a *RecordError (wrapping
// ErrCorruptRecord) for anything that is not exactly a PID line optionally
// followed by a JSON line that agrees with it; the Record of an error is
// zero, so a corrupt file can never hand out a PID.
func parseRecord(b []byte) (Record, error) {
	switch {
	case len(b) == 0:
		return corrupt("empty", nil)
	case len(b) > maxRecordSize:
		return corrupt(fmt.Sprintf("larger than %d bytes", maxRecordSize), nil)
	case bytes.IndexByte(b, 0) >= 0:
		return corrupt("contains NUL bytes", nil)
	}
	first, rest, _ := bytes.Cut(b, []byte("\n"))
	pid, err := parsePIDLine(first)
	if err != nil {
		return corrupt("first line", err)
	}
	line, extra, _ := bytes.Cut(rest, []byte("\n"))
	line = bytes.TrimSpace(line)
	if len(bytes.TrimSpace(extra)) > 0 {
		return corrupt("data after the JSON line", nil)
	}
	if len(line) == 0 {
		return Record{PID: pid}, nil
	}
	if line[0] != '{' {
		return corrupt("second line is not a JSON object", nil)
	}
	var j recordJSON
	if err := json.Unmarshal(line, &j); err != nil {
		return corrupt("JSON line", err)
	}
	switch {
	case j.V < 1:
		return corrupt(fmt.Sprintf("JSON line: version %d", j.V), nil)
	case j.PID != pid:
		return corrupt(fmt.Sprintf("JSON pid %d disagrees with first line %d", j.PID, pid), nil)
	case j.Start == nil && j.Boot != "":
		return corrupt("JSON line: boot without start", nil)
	case j.Start == nil && (j.Serial != 0 || j.PIDNS != 0):
		return corrupt("JSON line: serial or pidns without start", nil)
	case j.Start != nil && j.NoID != "":
		return corrupt("JSON line: noid with a start", nil)
	}
	r := Record{PID: pid, Version: j.V, NoIdentity: j.NoID, Host: j.Host, Program: j.Prog}
	if id, ok := j.identity(); ok {
		r.Identity, r.HasIdentity = id, true
	}
	if j.Acquired != "" {
		r.Acquired, err = time.Parse(time.RFC3339Nano, j.Acquired)
		if err != nil {
			return corrupt("JSON line: acquired", err)
		}
	}
	return r, nil
}

// parsePIDLine accepts one decimal PID with optional surrounding blanks (and
// the \r of a CRLF line end): no sign, no other characters.
func parsePIDLine(line []byte) (int, error) {
	s := string(bytes.Trim(line, " \t\r"))
	if s == "" {
		return 0, fmt.Errorf("no PID: %w", ErrInvalidPID)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%.20q is not a decimal PID: %w", s, ErrInvalidPID)
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ValidatePID(int(n)) != nil || int64(int(n)) != n {
		return 0, fmt.Errorf("%.20s: %w (want 1..%d)", s, ErrInvalidPID, MaxPID)
	}
	return int(n), nil
}

// recordState is what the OS says of the process a record names:
// Identity.Probe when the record has an identity, Probe of the PID
// otherwise.
func recordState(r Record) (State, error) {
	if r.HasIdentity {
		return r.Identity.Probe()
	}
	return Probe(r.PID)
}

// newRecord is this process's owner record, to be written once it holds
// the lock (Acquired is then set).
func newRecord(program string) (Record, error) {
	r := Record{
		Version: recordVersion,
		Program: recordedName(program),
		Host:    hostName(),
	}
	id, noID, err := selfToRecord()
	r.Identity, r.HasIdentity, r.NoIdentity = id, noID == "", noID
	r.PID = id.PID // Self's, read once
	if !r.HasIdentity {
		r.PID = os.Getpid()
	}
	return r, err
}

// selfToRecord is this process's identity for a record or marker, or, where
// the OS gives none (ErrUnsupported: no process table safeprobe reads, a
// /proc this process does not appear in), why not, to be recorded in its
// place: a record never lacks an identity without saying so. Any other
// failure (a full descriptor table) is an error: a record written then
// would lack one that could have been read.
func selfToRecord() (id Identity, noID string, err error) {
	id, err = Self()
	switch {
	case err == nil:
		return id, "", nil
	case errors.Is(err, ErrUnsupported):
		return Identity{}, err.Error(), nil
	}
	return Identity{}, "", fmt.Errorf("reading this process's identity for the record: %w", err)
}

// hostName is this machine's name for records and markers, cut as
// recordedName cuts it; empty if unknown. It is read once it can be: a
// host renamed while a process runs keeps its old name in that process's
// records, which only people read.
func hostName() string {
	h, _ := hostNames.get(func() (string, error) {
		h, err := os.Hostname()
		return recordedName(h), err
	})
	return h
}

var hostNames cached[string]

// writeRecord replaces the content of a locked file with b; a file that
// its open made is empty, and is not truncated first.
func writeRecord(f lockFile, b []byte, sync bool) error {
	if !f.fresh() {
		if err := f.Truncate(0); err != nil {
			return err
		}
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	if sync {
		return f.Sync()
	}
	return nil
}

// readRecordBytes reads up to maxRecordSize+1 bytes of a lock file, so
// parseRecord can tell a file too large to be a record. A read error
// yields what was read, which parseRecord judges.
func readRecordBytes(f io.ReaderAt) []byte {
	b := make([]byte, maxRecordSize+1)
	n, _ := f.ReadAt(b, 0)
	return b[:n]
}
