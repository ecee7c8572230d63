package a

import "net/http"

// client makes the module depend on net, a cgo package: loaded with an
// empty build cache, its dependencies must still type-check.
var client = http.DefaultClient
