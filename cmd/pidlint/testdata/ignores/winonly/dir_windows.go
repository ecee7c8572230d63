package winonly

//pidlint:file-ignore procstat this package reads no /proc
