module example.com/findprocess

go 1.24
