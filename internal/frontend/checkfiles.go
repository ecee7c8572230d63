package frontend

import (
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/pidlint/pidlint/internal/finding"
)

// CheckFiles is the Check of a front end that checks each file on its
// own (in.Files): it returns the result the run cache (RunCache, lang's)
// kept for the same files, binary and settings, or checks the files on
// one worker per CPU with check, which returns a file's findings and
// errors (each naming the file), and keeps the result.
func CheckFiles(lang string, in *Input, check func(file string) ([]finding.Finding, []string)) *Result {
	files := slices.Clone(in.Files) // sorted, as the walk gives them
	res := &Result{Checked: len(files) > 0}
	res.Analyzed = func(file string) bool {
		_, found := slices.BinarySearch(files, filepath.Clean(file))
		return found
	}
	if len(files) == 0 {
		return res
	}
	cache := NewRunCache(lang)
	key, cacheable := cache.Key(in)
	if cacheable {
		if r, hit := cache.Get(key); hit {
			res.Findings, res.Errors = r.Findings, r.Errors
			return res
		}
	}
	type fileResult struct {
		findings []finding.Finding
		errs     []string
	}
	results := make([]fileResult, len(files))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := range work {
				results[i].findings, results[i].errs = check(files[i])
			}
		})
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	for _, r := range results {
		res.Findings = append(res.Findings, r.findings...)
		res.Errors = append(res.Errors, r.errs...)
	}
	if cacheable {
		cache.Put(key, &CachedRun{Findings: res.Findings, Errors: res.Errors})
	}
	return res
}
