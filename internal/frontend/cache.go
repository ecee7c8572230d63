package frontend

import (
	"os"
	"path/filepath"
)

// CacheEnv names the directory of pidlint's cache, where front ends keep
// results for the next run, or "off".
const CacheEnv = "PIDLINT_CACHE"

// CacheDir is the directory of pidlint's cache: the one CacheEnv names,
// else pidlint's in the user's cache directory; "" when off or when there
// is none.
func CacheDir() string {
	switch dir := os.Getenv(CacheEnv); {
	case dir == "off":
		return ""
	case dir != "":
		return dir
	}
	if user, err := os.UserCacheDir(); err == nil {
		return filepath.Join(user, "pidlint")
	}
	return ""
}
