package python

import (
	"os"
	"sync"

	"github.com/pidlint/pidlint/internal/frontend/python/pyparse"
)

// A loader reads and parses the files of a run, each once, for the
// workers that check them and for the evidence one file needs of another
// (who imports it, what the modules of its package import). It is safe
// for concurrent use.
type loader struct {
	parsers sync.Pool // *pyparse.Parser, one in use per goroutine
	mu      sync.Mutex
	entries map[string]*entry
}

// An entry is one file as loaded.
type entry struct {
	readOnce, parseOnce sync.Once
	data                []byte
	err                 error
	f                   *file
}

func newLoader() *loader {
	l := &loader{entries: map[string]*entry{}}
	l.parsers.New = func() any { return pyparse.NewParser() }
	return l
}

func (l *loader) entry(path string) *entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entries[path]
	if e == nil {
		e = &entry{}
		l.entries[path] = e
	}
	return e
}

// read returns the file's bytes.
func (l *loader) read(path string) ([]byte, error) {
	e := l.entry(path)
	e.readOnce.Do(func() { e.data, e.err = os.ReadFile(path) })
	return e.data, e.err
}

// mentions reports whether the file's text holds word as a whole word,
// before anyone parses it.
func (l *loader) mentions(path, word string) bool {
	data, err := l.read(path)
	return err == nil && mentionsBytes(data, word)
}

// parse parses data, the text of the file path, on a parser of the pool.
func (l *loader) parse(path string, data []byte) (*file, error) {
	p := l.parsers.Get().(*pyparse.Parser)
	defer l.parsers.Put(p)
	t, err := p.Parse(data)
	if err != nil {
		return nil, err
	}
	return newFile(path, t, l), nil
}

// load returns the file parsed, or nil when it cannot be read or parsed:
// evidence from another file is only ever a reason not to report.
func (l *loader) load(path string) *file {
	e := l.entry(path)
	e.parseOnce.Do(func() {
		data, err := l.read(path)
		if err == nil {
			e.f, _ = l.parse(path, data)
		}
	})
	return e.f
}
