package lib

import (
	"fmt"
	"os"
)

// Describe is host code: it uses fmt and os, which kernels cannot.
func Describe() string { return fmt.Sprint(os.Args, Scale) }
