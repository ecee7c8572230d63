// Package winonly has a directive in a file that builds only for windows,
// and nothing else a rule looks at.
package winonly
