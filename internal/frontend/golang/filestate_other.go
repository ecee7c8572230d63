//go:build !unix

package golang

import (
	"os"
	"strconv"
)

// appendFileState appends to b what names the content of the file name as
// far as the cache can tell without reading it: its size and modification
// time.
func appendFileState(b []byte, name string) ([]byte, error) {
	info, err := os.Stat(name)
	if err != nil {
		return b, err
	}
	b = strconv.AppendInt(append(b, ' '), info.Size(), 10)
	return strconv.AppendInt(append(b, ' '), info.ModTime().UnixNano(), 10), nil
}
