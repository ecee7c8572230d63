package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// A listedPackage is what go list -find says of a package.
type listedPackage struct {
	Dir                                          string
	ImportPath                                   string
	GoFiles, CgoFiles, TestGoFiles, XTestGoFiles []string
}

// list lists the packages the patterns match for goos, without loading
// their dependencies.
func (p *Plan) list(goos string) ([]listedPackage, error) {
	args := append([]string{"list", "-e", "-find", "-json=Dir,ImportPath,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles"}, p.Patterns...)
	cmd := p.goCmd.Command(goos, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var lp listedPackage
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		pkgs = append(pkgs, lp)
	}
	return pkgs, nil
}
