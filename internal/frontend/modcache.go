package frontend

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
)

// moduleCache is the directory of the Go module cache: $GOMODCACHE, else
// the first entry of $GOPATH plus /pkg/mod, else ~/go/pkg/mod.
func moduleCache() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if gp := os.Getenv("GOPATH"); gp != "" {
		if first := filepath.SplitList(gp)[0]; first != "" {
			return filepath.Join(first, "pkg", "mod")
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go", "pkg", "mod")
	}
	return ""
}

// escapeModPath case-encodes a module path or version for the module
// cache: each upper-case letter becomes '!' and the lower-case letter, so
// that the cache works on case-insensitive file systems.
func escapeModPath(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			b.WriteRune(r + ('a' - 'A'))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// modCacheDir is where the module cache keeps package rel of module path
// at version.
func modCacheDir(cache, path, version, rel string) string {
	dir := filepath.Join(cache, filepath.FromSlash(escapeModPath(path))+"@"+escapeModPath(version))
	return filepath.Join(dir, filepath.FromSlash(rel))
}

// depDirs returns the directories that may hold import path p according to
// the dependencies the binary was built with: the module cache copy of the
// dependency whose path is the longest prefix of p, or its replacement (a
// local directory resolves relative to mainRoot, the main module's root).
func depDirs(p string, deps []*debug.Module, modCache, mainRoot string) []string {
	var best *debug.Module
	var bestRel string
	for _, d := range deps {
		if d == nil {
			continue
		}
		if rel, ok := within(p, d.Path); ok && (best == nil || len(d.Path) > len(best.Path)) {
			best, bestRel = d, rel
		}
	}
	if best == nil {
		return nil
	}
	if r := best.Replace; r != nil {
		if r.Version == "" {
			dir := r.Path
			if !filepath.IsAbs(dir) {
				if mainRoot == "" {
					return nil
				}
				dir = filepath.Join(mainRoot, dir)
			}
			return []string{filepath.Join(dir, filepath.FromSlash(bestRel))}
		}
		if modCache == "" {
			return nil
		}
		return []string{modCacheDir(modCache, r.Path, r.Version, bestRel)}
	}
	if modCache == "" || best.Version == "" || best.Version == "(devel)" {
		return nil
	}
	return []string{modCacheDir(modCache, best.Path, best.Version, bestRel)}
}

// buildDeps is the dependency list this binary was built with.
var buildDeps = sync.OnceValues(func() ([]*debug.Module, string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, ""
	}
	return bi.Deps, bi.Main.Path
})
