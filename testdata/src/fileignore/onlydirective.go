package fileignore

// A file with nothing but a bad directive is still analyzed: the source
// pre-filter accepts it.

//pidlint:file-ignore PL001 // want `pidlint:file-ignore PL001 needs a reason after the rule`
