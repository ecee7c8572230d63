module example.com/ignores

go 1.24
