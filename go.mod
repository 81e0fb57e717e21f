module github.com/nugo-dev/nugo

go 1.26.8
