module github.com/pidlint/pidlint/tools/recall

go 1.26.0
