package fileignore

// A file-ignore that suppresses nothing is not reported: it may stand for
// findings of another build.

//pidlint:file-ignore shell-probe this file may start pgrep on another OS

func nothing() {}
