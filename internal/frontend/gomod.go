package frontend

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// goMod is what the front end needs of a go.mod file: the module path and
// the replace directives, found from a package's directory.
type goMod struct {
	root     string // directory holding go.mod
	path     string // module path
	replaces []replace
}

// replace is one replace directive: imports under old come from a local
// directory (version "") or from another module version.
type replace struct {
	old     string
	newPath string
	version string
}

// parseGoMod reads the module line and the replace directives of a go.mod
// file; everything else in it is irrelevant to finding source.
func parseGoMod(data []byte) (modPath string, replaces []replace, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	inReplace := false
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.Index(text, "//"); i >= 0 {
			text = text[:i]
		}
		fields, err := goModFields(text)
		if err != nil {
			return "", nil, fmt.Errorf("line %d: %w", line, err)
		}
		if len(fields) == 0 {
			continue
		}
		if inReplace {
			if fields[0] == ")" {
				inReplace = false
				continue
			}
			r, ok := parseReplace(fields)
			if !ok {
				return "", nil, fmt.Errorf("line %d: malformed replace directive", line)
			}
			replaces = append(replaces, r)
			continue
		}
		switch fields[0] {
		case "module":
			if len(fields) != 2 {
				return "", nil, fmt.Errorf("line %d: malformed module directive", line)
			}
			modPath = fields[1]
		case "replace":
			if len(fields) == 2 && fields[1] == "(" {
				inReplace = true
				continue
			}
			r, ok := parseReplace(fields[1:])
			if !ok {
				return "", nil, fmt.Errorf("line %d: malformed replace directive", line)
			}
			replaces = append(replaces, r)
		}
	}
	if modPath == "" {
		return "", nil, fmt.Errorf("no module directive")
	}
	return modPath, replaces, nil
}

// goModFields splits a go.mod line into fields, unquoting quoted ones.
func goModFields(s string) ([]string, error) {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\r")
		if s == "" {
			return out, nil
		}
		if s[0] == '"' || s[0] == '`' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, fmt.Errorf("bad quoted string: %w", err)
			}
			u, _ := strconv.Unquote(q)
			out = append(out, u)
			s = s[len(q):]
			continue
		}
		i := strings.IndexAny(s, " \t\r")
		if i < 0 {
			i = len(s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
}

// parseReplace parses "old [v] => new [v]".
func parseReplace(f []string) (replace, bool) {
	arrow := -1
	for i, s := range f {
		if s == "=>" {
			arrow = i
		}
	}
	if arrow < 1 || arrow > 2 {
		return replace{}, false
	}
	r := replace{old: f[0]}
	switch len(f) - arrow - 1 {
	case 1:
		r.newPath = f[arrow+1]
	case 2:
		r.newPath, r.version = f[arrow+1], f[arrow+2]
	default:
		return replace{}, false
	}
	return r, true
}

// isLocalReplace reports whether a replacement names a directory (as go.mod
// requires, it starts with ./, ../ or is absolute).
func isLocalReplace(p string) bool {
	return filepath.IsAbs(p) || p == "." || p == ".." ||
		strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") ||
		strings.HasPrefix(p, `.\`) || strings.HasPrefix(p, `..\`)
}

// goModCache caches go.mod files by path, revalidated like parsed sources.
var goModCache = struct {
	sync.Mutex
	m map[string]goModEntry
}{m: map[string]goModEntry{}}

type goModEntry struct {
	ident fileIdent
	mod   *goMod
	err   error
}

// findGoMod returns the go.mod of the module holding dir, looking upward,
// or nil when there is none.
func findGoMod(dir string) (*goMod, error) {
	for d := dir; ; {
		path := filepath.Join(d, "go.mod")
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return readGoMod(path, identOf(st))
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, nil
		}
		d = parent
	}
}

func readGoMod(path string, id fileIdent) (*goMod, error) {
	goModCache.Lock()
	e, ok := goModCache.m[path]
	goModCache.Unlock()
	if ok && e.ident == id {
		return e.mod, e.err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := &goMod{root: filepath.Dir(path)}
	m.path, m.replaces, err = parseGoMod(data)
	if err != nil {
		m, err = nil, fmt.Errorf("%s: %w", path, err)
	}
	goModCache.Lock()
	goModCache.m[path] = goModEntry{id, m, err}
	goModCache.Unlock()
	return m, err
}

// within returns the part of path below prefix ("" for prefix itself), and
// whether path is prefix or below it.
func within(path, prefix string) (string, bool) {
	if path == prefix {
		return "", true
	}
	if strings.HasPrefix(path, prefix+"/") {
		return path[len(prefix)+1:], true
	}
	return "", false
}

// dirs returns the directories that may hold import path p according to
// mod, in the order to try: the module's own tree for its packages, else
// (when honorMain, as the go command does for the main module only)
// vendor/ and the replace directives (a replacement by another version is
// found in modCache).
func (mod *goMod) dirs(p, modCache string, honorMain bool) []string {
	var out []string
	if rel, ok := within(p, mod.path); ok {
		return append(out, filepath.Join(mod.root, filepath.FromSlash(rel)))
	}
	if !honorMain {
		return nil
	}
	if st, err := os.Stat(filepath.Join(mod.root, "vendor")); err == nil && st.IsDir() {
		out = append(out, filepath.Join(mod.root, "vendor", filepath.FromSlash(p)))
	}
	best := -1
	var bestRel string
	for i, r := range mod.replaces {
		if rel, ok := within(p, r.old); ok && (best < 0 || len(r.old) > len(mod.replaces[best].old)) {
			best, bestRel = i, rel
		}
	}
	if best >= 0 {
		r := mod.replaces[best]
		if r.version == "" && isLocalReplace(r.newPath) {
			dir := r.newPath
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(mod.root, dir)
			}
			out = append(out, filepath.Join(dir, filepath.FromSlash(bestRel)))
		} else if r.version != "" && modCache != "" {
			out = append(out, modCacheDir(modCache, r.newPath, r.version, bestRel))
		}
	}
	return out
}
