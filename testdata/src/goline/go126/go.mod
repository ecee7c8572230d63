module example.com/goline126

go 1.26
