// Package version tells which nugo a binary holds: the module version and
// the version control revision it was built from, as the Go toolchain
// records them in the binary (runtime/debug.ReadBuildInfo).
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Module is nugo's module path.
const Module = "github.com/nugo-dev/nugo"

// Info is what the binary records of the nugo it was built with.
type Info struct {
	Version  string // module version: "v0.3.0", a pseudo-version, or "(devel)" for a build of a checkout without one
	Revision string // VCS revision, when built from a checkout ("" otherwise)
	Time     string // the revision's commit time, RFC 3339
	Modified bool   // the checkout had uncommitted changes
	Go       string // the Go toolchain's version
	Platform string // GOOS/GOARCH
}

// Get reads the binary's build information. nugo is the main module of its
// own commands and a dependency of a user's program; either way its
// version is the one the build used.
func Get() Info {
	info := Info{Version: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	if bi.Main.Path == Module {
		info.Version = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Revision = s.Value
			case "vcs.time":
				info.Time = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	} else {
		for _, d := range bi.Deps {
			if d.Path == Module {
				info.Version = d.Version
				if d.Replace != nil {
					info.Version += " => " + d.Replace.Path
					if d.Replace.Version != "" {
						info.Version += " " + d.Replace.Version
					}
				}
			}
		}
	}
	if info.Version == "" {
		info.Version = "(devel)"
	}
	return info
}

// String is one line: "nugo VERSION (REVISION[+modified], TIME) GO GOOS/GOARCH".
func (i Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "nugo %s", i.Version)
	if i.Revision != "" {
		rev := i.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if i.Modified {
			rev += "+modified"
		}
		fmt.Fprintf(&b, " (%s", rev)
		if i.Time != "" {
			fmt.Fprintf(&b, ", %s", i.Time)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " %s %s", i.Go, i.Platform)
	return b.String()
}
