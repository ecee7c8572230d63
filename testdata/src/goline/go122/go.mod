module example.com/goline122

go 1.22
