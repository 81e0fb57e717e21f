module example.com/replaced

go 1.26
