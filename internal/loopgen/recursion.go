package loopgen

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// Recursion on the CPU backend is plain Go recursion, and a runaway one
// ends the process with Go's fatal stack overflow, which nothing can
// recover. So for a kernel that reaches a recursive function of its
// package (a cycle of direct calls between the package's non-generic
// functions), the generated file carries depth-counting copies: of the
// kernel, and of every function on its way to the recursion, each taking
// the call depth as an extra first parameter and panicking with
// cuda.ErrCallDepth beyond cuda.MaxCallDepth. The CPU backend runs the
// kernel's copy (cuda.RegisterCallDepthBound), and its row loop calls it;
// the panic becomes a *cuda.KernelError as any other. The copies are the
// functions' own source text with the calls renamed, under //line
// directives, so that positions are those of the user's files.

// callGraph is the package's direct calls between its non-generic
// package-level functions.
type callGraph struct {
	decls map[*types.Func]*ast.FuncDecl
	calls map[*types.Func][]*types.Func
	// onWay holds the functions that reach a recursive one (they included).
	onWay map[*types.Func]bool
}

func (g *generator) buildCallGraph() *callGraph {
	cg := &callGraph{decls: map[*types.Func]*ast.FuncDecl{}, calls: map[*types.Func][]*types.Func{}, onWay: map[*types.Func]bool{}}
	info := g.pkg.TypesInfo
	for _, f := range g.pkg.Syntax {
		if strings.HasSuffix(g.pkg.Fset.File(f.Pos()).Name(), "/"+FileName) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil {
				continue
			}
			if obj, ok := info.Defs[fd.Name].(*types.Func); ok {
				cg.decls[obj] = fd
			}
		}
	}
	for obj, fd := range cg.decls {
		seen := map[*types.Func]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if callee := cg.callee(info, n); callee != nil && !seen[callee] {
				seen[callee] = true
				cg.calls[obj] = append(cg.calls[obj], callee)
			}
			return true
		})
	}
	// A function is recursive when it reaches itself; onWay is everything
	// that reaches a recursive function.
	reach := func(from *types.Func) map[*types.Func]bool {
		out := map[*types.Func]bool{}
		stack := slices.Clone(cg.calls[from])
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !out[f] {
				out[f] = true
				stack = append(stack, cg.calls[f]...)
			}
		}
		return out
	}
	reaches := map[*types.Func]map[*types.Func]bool{}
	for f := range cg.decls {
		reaches[f] = reach(f)
	}
	for f, r := range reaches {
		for h := range r {
			if reaches[h][h] {
				cg.onWay[f] = true
				break
			}
		}
	}
	return cg
}

// callee returns the package function n calls directly, if n is such a
// call.
func (cg *callGraph) callee(info *types.Info, n ast.Node) *types.Func {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil
	}
	id, ok := astutil.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	fn, ok := info.Uses[id].(*types.Func)
	if !ok || cg.decls[fn] == nil {
		return nil
	}
	return fn
}

// depthBounded writes the depth-counting copies for kernel fd (non-generic,
// with a row loop) if it reaches a recursive function, and returns the
// name of the kernel's copy ("" when it needs none) or why it cannot have
// one.
func (g *generator) depthBounded(fd *ast.FuncDecl) (string, string) {
	if g.calls == nil {
		g.calls = g.buildCallGraph()
		g.copies = map[*types.Func]string{}
		g.copied = map[*types.Func]bool{}
	}
	cg := g.calls
	obj, _ := g.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	if obj == nil || !cg.onWay[obj] {
		return "", ""
	}
	// The kernel's copy and the copies of the functions it reaches on the
	// way to a recursion.
	var need []*types.Func
	seen := map[*types.Func]bool{obj: true}
	stack := []*types.Func{obj}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		need = append(need, f)
		for _, c := range cg.calls[f] {
			if cg.onWay[c] && !seen[c] {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	for _, f := range need {
		if _, ok := g.copies[f]; !ok {
			g.copies[f] = g.local("nugoDepth_" + f.Name())
			g.names[g.copies[f]] = true
		}
	}
	var texts []string
	for _, f := range need {
		if g.copied[f] {
			continue
		}
		text, why := g.depthCopy(cg.decls[f], f == obj)
		if why != "" {
			return "", why
		}
		texts = append(texts, text)
	}
	for _, f := range need {
		g.copied[f] = true
	}
	for _, t := range texts {
		g.decls.WriteString(t)
	}
	return g.copies[obj], ""
}

// edit replaces the source bytes [from, to) with text.
type edit struct {
	from, to int
	text     string
}

// depthCopy returns the source of fd's depth-counting copy: the kernel's
// copy starts the count (its calls pass depth 1), a function's takes it as
// its first parameter, checks it against the limit, and passes it on plus
// one.
func (g *generator) depthCopy(fd *ast.FuncDecl, kernel bool) (string, string) {
	fset := g.pkg.Fset
	info := g.pkg.TypesInfo
	file := fset.File(fd.Pos())
	src, err := os.ReadFile(file.Name())
	if err != nil {
		return "", fmt.Sprintf("reading its source for the call-depth copy: %v", err)
	}
	start, end := file.Offset(fd.Pos()), file.Offset(fd.End())
	if end > len(src) || start > end {
		return "", "its source changed while nugo gen ran"
	}
	used := map[string]bool{}
	ast.Inspect(fd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if _, pkg := info.Uses[id].(*types.PkgName); !pkg {
				used[id.Name] = true
			}
		}
		return true
	})
	depth := "nugoDepth"
	for i := 2; used[depth]; i++ {
		depth = fmt.Sprintf("nugoDepth%d", i)
	}
	cudaName := g.importName(cudaPath, "cuda")
	if used[cudaName] {
		return "", fmt.Sprintf("a name %s in %s hides the package cuda in its call-depth copy", cudaName, fd.Name.Name)
	}
	if ps := fd.Type.Params.List; !kernel && len(ps) > 0 && len(ps[0].Names) == 0 {
		return "", fmt.Sprintf("%s's parameters are unnamed, so its call-depth copy cannot add one", fd.Name.Name)
	}
	var edits []edit
	at := func(p ast.Node) int { return file.Offset(p.Pos()) - start }
	edits = append(edits, edit{at(fd.Name), at(fd.Name) + len(fd.Name.Name), g.copies[info.Defs[fd.Name].(*types.Func)]})
	next := "1"
	if !kernel {
		next = depth + "+1"
		sep := ""
		if fd.Type.Params.NumFields() > 0 {
			sep = ", "
		}
		o := file.Offset(fd.Type.Params.Opening) - start + 1
		edits = append(edits, edit{o, o, depth + " int" + sep})
		line := fset.Position(fd.Body.Lbrace).Line
		name := shortFile(file.Name())
		o = file.Offset(fd.Body.Lbrace) - start + 1
		edits = append(edits, edit{o, o, fmt.Sprintf("\n//line %s:%d\nif %s > %s.MaxCallDepth {\npanic(%s.ErrCallDepth)\n}\n//line %s:%d\n",
			name, line, depth, cudaName, cudaName, name, line)})
	}
	var bad string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if callee := g.calls.callee(info, n); callee != nil && g.calls.onWay[callee] {
			call := n.(*ast.CallExpr)
			id := astutil.Unparen(call.Fun).(*ast.Ident)
			edits = append(edits, edit{at(id), at(id) + len(id.Name), g.copies[callee]})
			o := file.Offset(call.Lparen) - start + 1
			sep := ", "
			if len(call.Args) == 0 {
				sep = ""
			}
			edits = append(edits, edit{o, o, next + sep})
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok {
				if pn, ok := info.Uses[x].(*types.PkgName); ok {
					name := g.importName(pn.Imported().Path(), pn.Imported().Name())
					if name != x.Name {
						if used[name] {
							bad = fmt.Sprintf("a name %s in %s hides a package in its call-depth copy", name, fd.Name.Name)
						}
						edits = append(edits, edit{at(x), at(x) + len(x.Name), name})
					}
				}
			}
		}
		return true
	})
	if bad != "" {
		return "", bad
	}
	text := []byte(string(src[start:end]))
	slices.SortStableFunc(edits, func(a, b edit) int { return b.from - a.from })
	for _, e := range edits {
		text = append(text[:e.from:e.from], append([]byte(e.text), text[e.to:]...)...)
	}
	return fmt.Sprintf("\n//line %s:%d\n%s\n", shortFile(file.Name()), fset.Position(fd.Pos()).Line, text), ""
}
