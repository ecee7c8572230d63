// Command sarifcheck validates SARIF logs against the SARIF 2.1.0 JSON
// schema (sarif-schema-2.1.0.json, the OASIS errata01 schema, vendored
// beside it as the module github.com/owenrumney/go-sarif/v3 v3.3.1 ships
// it, in pkg/report/v210/sarif/schema.go). pidlint's tests run it on
// pidlint -format=sarif output; it is a module of its own so that pidlint
// depends on no schema validator.
//
// Usage:
//
//	go run . file.sarif...
//
// It exits 1 and prints the violations when a file is invalid.
package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed sarif-schema-2.1.0.json
var schemaJSON []byte

const schemaURL = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sarifcheck file.sarif...")
		os.Exit(2)
	}
	sch, err := compile()
	if err != nil {
		fmt.Fprintf(os.Stderr, "sarifcheck: %v\n", err)
		os.Exit(2)
	}
	status := 0
	for _, name := range os.Args[1:] {
		if err := validate(sch, name); err != nil {
			fmt.Fprintf(os.Stderr, "sarifcheck: %s: invalid: %v\n", name, err)
			status = 1
		}
	}
	os.Exit(status)
}

// compile compiles the vendored schema, with format assertions on (the
// schema's uri, uri-reference and date-time formats).
func compile() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

func validate(sch *jsonschema.Schema, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	inst, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return sch.Validate(inst)
}
