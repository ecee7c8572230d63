module example.com/goos

go 1.24
