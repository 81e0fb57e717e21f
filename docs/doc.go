// Package docs holds nugo's documentation as Markdown files. It has no code
// of its own: its test extracts every Go code block of the README and of the
// files here, checks that it is gofmt'd, compiles it, and runs each program
// on the cpu and ptxsim backends, comparing its output with the block
// labelled "output" that follows it, if any.
package docs
