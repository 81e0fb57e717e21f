package lib

// Unused is reached by no kernel: its file is not copied.
func Unused() int { return 1 }
