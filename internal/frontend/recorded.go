package frontend

import (
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// Kernel source is parsed under the file names this binary records for it
// (the names of runtime.Caller and of a Go traceback), not under the path
// it was read from: a failure inside a kernel then names the same file on
// the CPU backend, which reports the runtime's frames, and on the compiled
// backends, which report the compiler's positions, whether the binary was
// built with -trimpath or not and wherever its source was found.

// trimmedBuild reports whether this binary was built with -trimpath: its
// recorded file names are then module-relative, not absolute.
var trimmedBuild = sync.OnceValue(func() bool {
	_, file, _, ok := runtime.Caller(0)
	return ok && !filepath.IsAbs(file) && !strings.HasPrefix(file, "/")
})

// recordedDirOf is the recorded directory of a package one of whose files
// the binary records as recorded and which was read from opened.
func recordedDirOf(recorded, opened string) string {
	if recorded == "" {
		return filepath.Dir(opened)
	}
	if filepath.IsAbs(recorded) {
		return filepath.Dir(recorded)
	}
	return path.Dir(filepath.ToSlash(recorded))
}

// recordedName joins a recorded directory and a file name as the runtime
// writes them: with the OS's separator for an absolute directory, with a
// slash for a module-relative one.
func recordedName(recDir, base string) string {
	if filepath.IsAbs(recDir) {
		return filepath.Join(recDir, base)
	}
	return recDir + "/" + base
}

// recordedDir is the directory the binary records for the files of the
// imported package pkgPath, whose source was found in dir: dir itself in a
// build without -trimpath (where the binary was built from that tree), else
// the package path with its module's version, as -trimpath writes it
// ("example.com/m@v1.2.0/sub" for a dependency, the import path for the
// main module's packages).
func recordedDir(pkgPath, dir string) string {
	if !trimmedBuild() {
		return dir
	}
	deps, _ := buildDeps()
	best := ""
	bestVersion := ""
	for _, d := range deps {
		if d == nil {
			continue
		}
		if _, ok := within(pkgPath, d.Path); ok && len(d.Path) > len(best) {
			best, bestVersion = d.Path, d.Version
		}
	}
	if best == "" || bestVersion == "" || bestVersion == "(devel)" {
		return pkgPath
	}
	rel, _ := within(pkgPath, best)
	if rel == "" {
		return best + "@" + bestVersion
	}
	return best + "@" + bestVersion + "/" + rel
}
