package docs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A codeBlock is one fenced block of a Markdown file.
type codeBlock struct {
	pos    string // file:line of the opening fence
	lang   string // the fence's info string: go, output, sh, ...
	text   string
	output *codeBlock // for a go block, the output block right after it
}

// markdownFiles are the documents whose Go blocks the test compiles: the
// README and every Markdown file of this directory.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../README.md"}, files...)
}

// parseBlocks returns the fenced code blocks of a Markdown file, each go
// block linked to an output block that follows it with nothing but blank
// lines or one line of prose ending in ':' between them.
func parseBlocks(name string, src []byte) ([]*codeBlock, error) {
	var (
		blocks  []*codeBlock
		cur     *codeBlock
		body    strings.Builder
		between []string // lines since the last block closed
		fence   string
	)
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if cur == nil {
			if strings.HasPrefix(trimmed, "```") {
				fence = trimmed[:strings.LastIndex(trimmed, "`")+1]
				cur = &codeBlock{pos: fmt.Sprintf("%s:%d", name, n), lang: strings.TrimSpace(trimmed[len(fence):])}
				body.Reset()
				if cur.lang == "output" && len(blocks) > 0 {
					prev := blocks[len(blocks)-1]
					if prev.lang == "go" && prev.output == nil && onlyLeadIn(between) {
						prev.output = cur
					}
				}
				continue
			}
			if trimmed != "" {
				between = append(between, trimmed)
			}
			continue
		}
		if trimmed == fence {
			cur.text = body.String()
			blocks = append(blocks, cur)
			cur, between = nil, nil
			continue
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if cur != nil {
		return nil, fmt.Errorf("%s: code block not closed", cur.pos)
	}
	return blocks, nil
}

func onlyLeadIn(lines []string) bool {
	return len(lines) == 0 || (len(lines) == 1 && strings.HasSuffix(lines[0], ":"))
}

// packageName returns the name in a Go file's package clause, or "".
func packageName(src string) string {
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "package "); ok {
			return strings.TrimSpace(name)
		}
		if line != "" && !strings.HasPrefix(line, "//") {
			return ""
		}
	}
	return ""
}

func TestParseBlocks(t *testing.T) {
	src := "text\n```go\npackage main\n```\n\nIt prints:\n\n```output\nhi\n```\n```go\npackage x\n```\nprose\nmore prose\n```output\nno\n```\n"
	blocks, err := parseBlocks("f.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 4 {
		t.Fatalf("got %d blocks, want 4", len(blocks))
	}
	if blocks[0].pos != "f.md:2" || blocks[0].output != blocks[1] || blocks[1].text != "hi\n" {
		t.Errorf("first block: pos %s, output %v", blocks[0].pos, blocks[0].output)
	}
	if blocks[2].output != nil {
		t.Errorf("an output block after two lines of prose was linked to %s", blocks[2].pos)
	}
	if _, err := parseBlocks("g.md", []byte("```go\npackage main\n")); err == nil {
		t.Error("an unclosed block was accepted")
	}
	if got := packageName("// Comment.\n\npackage main\n"); got != "main" {
		t.Errorf("packageName = %q", got)
	}
	if got := packageName("x := 1\n"); got != "" {
		t.Errorf("packageName of a fragment = %q", got)
	}
}

// TestCodeBlocks compiles every Go block of the documentation and runs the
// programs on the cpu and ptxsim backends.
func TestCodeBlocks(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed to build the documentation's programs: %v", err)
	}
	var goBlocks []*codeBlock
	for _, name := range markdownFiles(t) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parseBlocks(strings.TrimPrefix(name, "../"), src)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if b.lang == "go" {
				goBlocks = append(goBlocks, b)
			}
		}
	}
	if len(goBlocks) < 10 {
		t.Fatalf("found %d Go blocks in the documentation; expected the tutorial's programs at least", len(goBlocks))
	}

	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "doctest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })

	var pkgs, mains []string
	byDir := map[string]*codeBlock{}
	for i, b := range goBlocks {
		name := packageName(b.text)
		if name == "" {
			t.Errorf("%s: a Go block must be a whole file (begin with a package clause) so that it can be compiled; use another language tag for a fragment of text", b.pos)
			continue
		}
		formatted, err := format.Source([]byte(b.text))
		if err != nil {
			t.Errorf("%s: %v", b.pos, err)
			continue
		}
		if string(formatted) != b.text {
			t.Errorf("%s: not gofmt'd; gofmt gives:\n%s", b.pos, formatted)
		}
		pkgDir := filepath.Join(dir, fmt.Sprintf("b%02d", i))
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkgDir, "main.go"), []byte(b.text), 0o644); err != nil {
			t.Fatal(err)
		}
		rel := "./" + filepath.ToSlash(pkgDir)
		pkgs = append(pkgs, rel)
		byDir[rel] = b
		if name == "main" {
			mains = append(mains, rel)
		}
	}
	if t.Failed() {
		return
	}
	bin, err := filepath.Abs(filepath.Join(dir, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", append([]string{"build", "-o", bin + string(filepath.Separator)}, pkgs...)...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of the documentation's code blocks (each bNN is a block: %s):\n%s", blockList(pkgs, byDir), out)
	}
	for _, pkg := range mains {
		b := byDir[pkg]
		exe := filepath.Join(bin, filepath.Base(pkg))
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		for _, backend := range []string{"cpu", "ptxsim"} {
			t.Run(b.pos+"/"+backend, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, exe)
				cmd.Env = append(os.Environ(), "NUGO_BACKEND="+backend)
				cmd.Dir = filepath.Dir(exe)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("the program of %s failed on %s: %v\nstdout:\n%s\nstderr:\n%s", b.pos, backend, err, stdout.String(), stderr.String())
				}
				if b.output == nil {
					return
				}
				if got, want := trimLines(stdout.String()), trimLines(b.output.text); got != want {
					t.Errorf("the program of %s printed on %s:\n%s\nthe output block at %s says:\n%s", b.pos, backend, got, b.output.pos, want)
				}
			})
		}
	}
}

func blockList(pkgs []string, byDir map[string]*codeBlock) string {
	var parts []string
	for _, p := range pkgs {
		parts = append(parts, filepath.Base(p)+"="+byDir[p].pos)
	}
	return strings.Join(parts, ", ")
}

// trimLines drops trailing spaces of every line and trailing blank lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}
