// Hostcode counts the host code of the newcomer program (a saxpy, a 2-D
// kernel, a shared-memory reduction, stream and event timing, a ufunc and a
// gufunc) in Numba (numba/newcomer.py) and in nugo, before and after
// nugo's host-code helpers (before/main.go, after/main.go): lines that are
// not blank, comments, imports or device code (package newcomer, and Numba's
// decorated functions), and of them the lines that check errors.
//
//	go run ./bench/hostcode
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
)

func main() {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	if _, err := os.Stat(filepath.Join(dir, "numba")); err != nil {
		dir = filepath.Join("bench", "hostcode") // run from the module root of a -trimpath build
	}
	py, err := os.ReadFile(filepath.Join(dir, "numba", "newcomer.py"))
	if err != nil {
		log.Fatal(err)
	}
	numba := countPython(string(py))
	fmt.Printf("%-28s %10s %12s\n", "program", "host lines", "error checks")
	fmt.Printf("%-28s %10d %12d\n", "Numba", numba.host, numba.errorChecks)
	for _, v := range []string{"before", "after"} {
		src, err := os.ReadFile(filepath.Join(dir, v, "main.go"))
		if err != nil {
			log.Fatal(err)
		}
		c, err := countGo(string(src))
		if err != nil {
			log.Fatalf("%s: %v", v, err)
		}
		fmt.Printf("%-28s %10d %12d   %.1f× Numba\n", "nugo "+v+" helpers", c.host, c.errorChecks, float64(c.host)/float64(numba.host))
	}
}
